import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBambuAnnouncement } from '../../../../../appliance/dashboard/printers/families/bambu-lan/ssdp.js';

// As a P1S in LAN mode sends it (header names as the firmware writes them, CRLF line ends).
const P1S_NOTIFY = [
  'NOTIFY * HTTP/1.1',
  'HOST: 239.255.255.250:1990',
  'Server: UPnP/1.0',
  'Location: 192.168.1.57',
  'NT: urn:bambulab-com:device:3dprinter:1',
  'USN: 01p00a451300456',
  'Cache-Control: max-age=1800',
  'DevModel.bambu.com: C12',
  'DevName.bambu.com: Workshop P1S',
  'DevSignal.bambu.com: -51',
  'DevConnect.bambu.com: lan',
  'DevBind.bambu.com: free',
  'Devseclink.bambu.com: secure',
  'DevVersion.bambu.com: 01.08.02.00',
  'DevCap.bambu.com: 1',
  '',
  '',
].join('\r\n');

test('a printer announcement is read: serial, address, model, name, firmware', () => {
  assert.deepEqual(parseBambuAnnouncement(Buffer.from(P1S_NOTIFY)), {
    serial: '01P00A451300456',
    host: '192.168.1.57',
    modelCode: 'C12',
    model: 'P1S',
    name: 'Workshop P1S',
    firmware: '01.08.02.00',
    connectMode: 'lan',
    signalDbm: -51,
    maxAgeS: 1800,
  });
});

test('model codes: known ones named, unknown ones kept', () => {
  const withModel = (code: string) => parseBambuAnnouncement(P1S_NOTIFY.replace('DevModel.bambu.com: C12', `DevModel.bambu.com: ${code}`))?.model;
  assert.equal(withModel('3DPrinter-X1-Carbon'), 'X1 Carbon');
  assert.equal(withModel('N2S'), 'A1');
  assert.equal(withModel('N1'), 'A1 mini');
  assert.equal(withModel('Z9'), 'Z9');
});

test('other datagrams are not printers', () => {
  assert.equal(parseBambuAnnouncement('M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1990\r\nST: urn:bambulab-com:device:3dprinter:1\r\n\r\n'), null);
  assert.equal(parseBambuAnnouncement(P1S_NOTIFY.replace('USN: 01p00a451300456', 'USN: uuid:1234')), null, 'a serial has 15 letters and digits');
  assert.equal(parseBambuAnnouncement(P1S_NOTIFY.replace('Location: 192.168.1.57\r\n', '')), null, 'no address');
  const upnp = 'NOTIFY * HTTP/1.1\r\nLocation: http://192.168.1.1/desc.xml\r\nNT: upnp:rootdevice\r\nUSN: 01P00A451300456\r\n\r\n';
  assert.equal(parseBambuAnnouncement(upnp), null, 'another device');
  assert.equal(parseBambuAnnouncement(Buffer.from([0xff, 0x00, 0x13])), null);
});
