import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import tls from 'node:tls';
import { createCertificateAuthority, issuePrinterCertificate } from '../../../../scripts/simulators/bambu/certs.js';
import { FtpsServer } from '../../../../scripts/simulators/bambu/ftps-server.js';
import { SdCard } from '../../../../scripts/simulators/bambu/sd-card.js';
import { FtpsClient } from '../../../fixtures/ftps-client.js';
import { testLog } from '../../../fixtures/virtual-bambu.js';

const SERIAL = '01P00A000000001';
let dir: string;
let sd: SdCard;
let server: FtpsServer;
let ca: string;
let accessCode = '24681357';

const connect = (reuseSession = true) => FtpsClient.connect({ host: '127.0.0.1', port: server.port, ca, servername: SERIAL, reuseSession });

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-ftps-test-'));
  const authority = await createCertificateAuthority(dir);
  const cert = await issuePrinterCertificate(authority, SERIAL, dir);
  ca = authority.pem;
  sd = new SdCard(path.join(dir, 'sd'));
  server = new FtpsServer({ host: '127.0.0.1', port: 0, key: cert.keyPem, cert: cert.certPem, sd, accessCode: () => accessCode, log: testLog() });
  await server.listen();
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('implicit TLS from the first byte: the greeting arrives over TLS verified with the serial as server name', async () => {
  const { client, greeting } = await connect();
  assert.equal(greeting.code, 220);
  await client.quit();
});

test('a plain TCP client gets no FTP greeting, and the wrong server name fails verification', async () => {
  await assert.rejects(FtpsClient.connect({ host: '127.0.0.1', port: server.port, ca, servername: '01P00A999999999' }), /does not match|altnames/i);
  const raw = await new Promise<string>((resolve) => {
    const socket = tls.connect({
      host: '127.0.0.1',
      port: server.port,
      rejectUnauthorized: false,
      servername: SERIAL,
      maxVersion: 'TLSv1.3',
      minVersion: 'TLSv1.3',
    });
    socket.once('error', (err) => resolve(err.message));
    socket.once('secureConnect', () => resolve('connected'));
  });
  assert.match(raw, /version|protocol/i, 'the server speaks TLS 1.2 only, like the printer');
});

test('a wrong access code gets 530 and commands before login are refused', async () => {
  const { client } = await connect();
  assert.equal((await client.send('PWD')).code, 530);
  assert.equal((await client.send('USER bblp')).code, 331);
  assert.deepEqual(await client.send('PASS 00000000'), { code: 530, text: 'Login incorrect.' });
  assert.equal((await client.send('USER someone')).code, 331);
  assert.equal((await client.send(`PASS ${accessCode}`)).code, 530, 'only bblp may log in');
  await client.quit();
});

test('upload, list, size, download, rename and delete over PROT P with session reuse', async () => {
  const { client } = await connect();
  await client.login('bblp', accessCode);
  assert.equal((await client.send('PWD')).text, '"/" is the current directory');
  const data = Buffer.from('G28\nG1 X10 Y10\n'.repeat(1000));
  assert.deepEqual(await client.upload('part.gcode.3mf', data), { code: 226, text: 'Transfer complete.' });
  assert.deepEqual(readFileSync(path.join(sd.root, 'part.gcode.3mf')), data);
  assert.deepEqual(await client.send('SIZE part.gcode.3mf'), { code: 213, text: String(data.length) });
  const listing = await client.list();
  assert.equal(listing.reply.code, 226);
  assert.match(listing.text, new RegExp(`^-rw-r--r-- .* ${data.length} \\w{3} [ \\d]\\d \\d\\d:\\d\\d part\\.gcode\\.3mf\\r$`, 'm'));
  assert.match(listing.text, /^drwxr-xr-x .* cache\r$/m, "the card has the printer's folders");
  const mlsd = await client.list('MLSD');
  assert.match(mlsd.text, new RegExp(`^type=file;size=${data.length};modify=\\d{14}; part\\.gcode\\.3mf\\r$`, 'm'));
  const names = await client.list('NLST');
  assert.deepEqual(names.text.split('\r\n').filter(Boolean), ['cache', 'part.gcode.3mf', 'timelapse']);
  const down = await client.download('part.gcode.3mf');
  assert.equal(down.reply.code, 226);
  assert.deepEqual(down.data, data);
  assert.equal((await client.send('RNFR part.gcode.3mf')).code, 350);
  assert.equal((await client.send('RNTO renamed.3mf')).code, 250);
  assert.equal((await client.send('DELE renamed.3mf')).code, 250);
  assert.equal((await client.send('DELE renamed.3mf')).code, 550);
  assert.equal((await client.send('SIZE renamed.3mf')).code, 550);
  await client.quit();
});

test('a data connection that does not resume the control session gets 522, like vsftpd with require_ssl_reuse', async () => {
  const { client } = await connect(false);
  await client.login('bblp', accessCode);
  const reply = await client.upload('fresh.3mf', Buffer.from('x'));
  assert.deepEqual(reply, { code: 522, text: 'SSL connection failed: session reuse required' });
  assert.equal((await client.list()).reply.code, 522);
  assert.equal((await client.send('SIZE fresh.3mf')).code, 550, 'nothing was stored');
  assert.equal((await client.send('NOOP')).code, 200, 'the control connection stays usable');
  await client.quit();
});

test('transfers need PROT P, and clear data connections are refused', async () => {
  const { client } = await connect();
  assert.equal((await client.send('USER bblp')).code, 331);
  assert.equal((await client.send(`PASS ${accessCode}`)).code, 230);
  assert.equal((await client.send('PROT C')).code, 521);
  assert.deepEqual(await client.upload('a.3mf', Buffer.from('x')), { code: 522, text: 'Data connections must be encrypted.' });
  assert.equal((await client.send('RETR a.3mf')).code, 550);
  assert.equal((await client.send('STOR a.3mf')).code, 522);
  assert.equal((await client.send('PROT P')).code, 200);
  assert.equal((await client.send('STOR a.3mf')).code, 425, 'no PASV or EPSV before it');
  await client.quit();
});

test('folders: MKD, CWD, CDUP, and paths cannot climb out of the card', async () => {
  writeFileSync(path.join(dir, 'outside.txt'), 'secret');
  const { client } = await connect();
  await client.login('bblp', accessCode);
  assert.deepEqual(await client.send('MKD models'), { code: 257, text: '"/models" created' });
  assert.equal((await client.send('CWD models')).code, 250);
  assert.equal((await client.upload('inner.3mf', Buffer.from('inner'))).code, 226);
  assert.equal((await client.send('PWD')).text, '"/models" is the current directory');
  assert.equal((await client.send('CWD /nowhere')).code, 550);
  assert.equal((await client.send('CDUP')).code, 250);
  assert.equal((await client.send('SIZE models/inner.3mf')).code, 213);
  assert.equal((await client.send('SIZE ../../outside.txt')).code, 550);
  assert.equal((await client.send('CWD ../..')).code, 250);
  assert.equal((await client.send('PWD')).text, '"/" is the current directory');
  assert.equal((await client.send('FOO')).code, 500);
  const feat = await client.send('FEAT');
  assert.equal(feat.code, 211);
  assert.match(feat.text, /^ EPSV$/m);
  await client.quit();
});

test('the access code is read at each login, so a changed code applies to new sessions', async () => {
  const before = accessCode;
  accessCode = '11112222';
  try {
    const { client } = await connect();
    assert.equal((await client.send('USER bblp')).code, 331);
    assert.equal((await client.send(`PASS ${before}`)).code, 530);
    await client.login('bblp', accessCode);
    await client.quit();
  } finally {
    accessCode = before;
  }
});
