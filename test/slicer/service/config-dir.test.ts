import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../../appliance/common/logger.js';
import { ConfigDirectory, configSignature } from '../../../appliance/slicer/service/config-dir.js';
import { USER_FILAMENT } from '../../fixtures/slicer-service.js';

const lines: string[] = [];
const log = createLogger({ name: 'test', level: 'info', write: (l) => lines.push(l) });
let dir: string;

function write(rel: string, value: unknown): void {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out; log:\n${lines.join('')}`);
    await sleep(20);
  }
}

beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'printyard-configdir-')), 'config');
  lines.length = 0;
});
afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

test('the folder is created and read: bundled plus user profiles and printers', async () => {
  write('profiles/my-petg.json', USER_FILAMENT);
  write('printers.json', { printers: [{ name: 'MK4', printer_profile: 'prusa-mk4-0.4', host_type: 'prusalink', host_url: 'http://mk4' }] });
  const config = await ConfigDirectory.open(dir, log);
  assert.equal(config.catalogue.get('my-petg').settings.nozzle_temperature?.[0], 235);
  assert.equal(config.catalogue.get('generic-pla').kind, 'filament');
  assert.deepEqual(
    config.printers.map((p) => p.id),
    ['mk4'],
  );
});

test('a broken printers.json stops the start', async () => {
  write('printers.json', { printers: [{ name: 'x' }] });
  await assert.rejects(ConfigDirectory.open(dir, log), /printers\[0\]\.printer_profile is required/);
});

test('the signature changes when a watched file changes', async () => {
  mkdirSync(dir, { recursive: true });
  const before = await configSignature(dir);
  write('import/prusaslicer/Acme.ini', '[vendor]\nname = Acme\n');
  assert.notEqual(await configSignature(dir), before);
  const after = await configSignature(dir);
  write('unwatched.txt', 'x');
  assert.equal(await configSignature(dir), after);
});

test('changes are picked up, the catalogue replaced, and a bad printers.json keeps the old list', async () => {
  const config = await ConfigDirectory.open(dir, log);
  const first = config.catalogue;
  const generation = config.generation;
  assert.throws(() => first.get('my-petg'), /unknown profile/);
  config.watch(30);
  try {
    write('profiles/my-petg.json', USER_FILAMENT);
    write('printers.json', { printers: [{ name: 'Voron', printer_profile: 'voron-2.4-350-0.4', host_type: 'moonraker', host_url: 'http://voron' }] });
    await until(() => config.generation > generation && config.printers.length === 1);
    assert.equal(config.catalogue.get('my-petg').name, 'My PETG');
    assert.notEqual(config.catalogue, first);
    assert.throws(() => first.get('my-petg'), /unknown profile/, 'the old catalogue is left as it was');

    write('printers.json', '{ broken');
    await until(() => lines.some((l) => l.includes('printer bindings not reloaded')));
    assert.deepEqual(
      config.printers.map((p) => p.id),
      ['voron'],
    );
  } finally {
    config.stop();
  }
});
