import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadPrinters, parsePrinters, printerView } from '../../../appliance/slicer/service/printers.js';
import { BAD_NAMES } from '../../fixtures/bad-names.js';

const X1C = {
  name: 'X1C left',
  printer_profile: 'bambu-lab-x1-carbon-0.4',
  host_type: 'bambu',
  host_url: '192.168.1.20',
  serial: '01S00A000000000',
  access_code: '12345678',
};
const MK4 = {
  id: 'mk4',
  name: 'MK4',
  printer_profile: 'prusa-mk4-0.4',
  host_type: 'prusalink',
  host_url: 'http://192.168.1.30',
  user: 'maker',
  password: 'pw',
};

test('bindings are read, ids derived from names, secrets kept out of the view', () => {
  const printers = parsePrinters({ printers: [X1C, MK4] }, 'printers.json');
  assert.deepEqual(
    printers.map((p) => p.id),
    ['x1c-left', 'mk4'],
  );
  assert.equal(printers[0].access_code, '12345678');
  const view = printerView(printers[0], true);
  assert.deepEqual(view, {
    id: 'x1c-left',
    name: 'X1C left',
    printer_profile: 'bambu-lab-x1-carbon-0.4',
    printer_profile_known: true,
    host_type: 'bambu',
    host_url: '192.168.1.20',
    user: null,
    serial: '01S00A000000000',
    secrets: ['access_code'],
  });
  assert.doesNotMatch(JSON.stringify(printerView(printers[1], false)), /pw"/);
  assert.deepEqual(printerView(printers[1], false).secrets, ['password']);
});

test('mistakes are reported with the entry and key', () => {
  const cases: Array<[unknown, RegExp]> = [
    [[], /expected an object with a "printers" list/],
    [{ printers: {} }, /"printers" must be a list/],
    [{ printers: [], extra: 1 }, /unknown key "extra"/],
    [{ printers: [{ ...X1C, host_type: 'telnet' }] }, /printers\[0\]\.host_type must be one of octoprint, .*not "telnet"/],
    [{ printers: [{ ...X1C, colour: 'red' }] }, /printers\[0\]: unknown key "colour"/],
    [{ printers: [X1C, { ...MK4, host_url: '' }] }, /printers\[1\]\.host_url is required/],
    [{ printers: [{ ...X1C, access_code: 1234 }] }, /printers\[0\]\.access_code must be a string/],
    [{ printers: [X1C, { ...X1C, serial: 'other' }] }, /two printers have the id "x1c-left"/],
    [{ printers: [{ ...X1C, id: 'Bad Id' }] }, /printers\[0\]\.id "Bad Id"/],
  ];
  for (const [json, message] of cases) {
    assert.throws(
      () => parsePrinters(json, '/cfg/printers.json'),
      (err: Error & { code?: string }) => {
        assert.match(err.message, /^\/cfg\/printers.json: /);
        assert.match(err.message, message);
        assert.equal(err.code, 'ERR_BAD_PRINTERS_FILE');
        return true;
      },
    );
  }
});

test('a name with a bidirectional, zero-width, separator or control character is refused, naming the code point', () => {
  for (const [name, codePoint] of [...BAD_NAMES, ['X1C\ttab', 'U+0009 (tab)'], ['X1C left\n', 'U+000A (line feed)']] as const) {
    assert.throws(
      () => parsePrinters({ printers: [MK4, { ...X1C, name }] }, '/cfg/printers.json'),
      (err: Error & { code?: string }) => {
        assert.equal(err.message, `/cfg/printers.json: printers[1].name contains ${codePoint}`);
        assert.equal(err.code, 'ERR_BAD_PRINTERS_FILE');
        return true;
      },
    );
  }
  assert.throws(() => parsePrinters({ printers: [{ ...X1C, name: '\u00a0' }] }, 'p.json'), /printers\[0\]\.name is required/);
});

test('a missing file means no printers; a broken one is an error', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-printers-'));
  try {
    assert.deepEqual(await loadPrinters(path.join(dir, 'printers.json')), []);
    writeFileSync(path.join(dir, 'printers.json'), '{"printers": [');
    await assert.rejects(loadPrinters(path.join(dir, 'printers.json')), /not valid JSON/);
    writeFileSync(path.join(dir, 'printers.json'), JSON.stringify({ printers: [MK4] }));
    assert.equal((await loadPrinters(path.join(dir, 'printers.json')))[0].name, 'MK4');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
