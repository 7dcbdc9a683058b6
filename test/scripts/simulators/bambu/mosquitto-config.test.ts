import assert from 'node:assert/strict';
import { test } from 'node:test';
import { internalAcl, mosquittoConf, passwordLines, printerAcl } from '../../../../scripts/simulators/bambu/mosquitto-config.js';

test('each printer gets its own TLS listener, password file and ACL; printers talk on a loopback listener', () => {
  const conf = mosquittoConf({
    dir: '/w',
    bindHost: '0.0.0.0',
    internalPort: 4000,
    runAs: 'root',
    listeners: [
      { serial: '01P00A000000001', port: 8883, accessCode: 'a', certPath: '/c/1.pem', keyPath: '/c/1.key' },
      { serial: '01P00A000000002', port: 8884, accessCode: 'b', certPath: '/c/2.pem', keyPath: '/c/2.key' },
    ],
    internalUsers: [],
  });
  assert.match(conf, /^per_listener_settings true$/m);
  assert.match(conf, /^listener 4000 127\.0\.0\.1\nallow_anonymous false\npassword_file \/w\/internal\.passwd\nacl_file \/w\/internal\.acl$/m);
  assert.match(
    conf,
    new RegExp(
      String.raw`^listener 8884 0\.0\.0\.0\ncertfile \/c\/2\.pem\nkeyfile \/c\/2\.key\nrequire_certificate false\nallow_anonymous false\n` +
        String.raw`password_file \/w\/01P00A000000002\.passwd\nacl_file \/w\/01P00A000000002\.acl$`,
      'm',
    ),
  );
  assert.equal(conf.match(/^allow_anonymous false$/gm)?.length, 3);
});

test('bblp writes requests and reads reports; the printer the other way round', () => {
  assert.equal(printerAcl('01P00A000000001'), 'user bblp\ntopic write device/01P00A000000001/request\ntopic read device/01P00A000000001/report\n');
  assert.equal(
    internalAcl([{ serial: 'S1', name: 'printer-S1', password: 'x' }]),
    'user printer-S1\ntopic read device/S1/request\ntopic write device/S1/report\n',
  );
  assert.equal(passwordLines([{ user: 'bblp', password: '12345678' }]), 'bblp:12345678\n');
});
