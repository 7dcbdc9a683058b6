import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSlicer, USER_FILAMENT, type SlicerProcess } from '../../../fixtures/slicer-service.js';

interface ProfileRow {
  id: string;
  kind: string;
  name: string;
  vendor: string;
  is_default: boolean;
  source: string;
  settings: Record<string, unknown>;
}

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--reload-interval-s', '0.05']);
});
after(() => svc.cleanup());

async function list(query = ''): Promise<{ status: number; profiles: ProfileRow[]; body: Record<string, unknown> }> {
  const res = await fetch(`${svc.url}/api/profiles${query}`);
  const body = (await res.json()) as { profiles: ProfileRow[] } & Record<string, unknown>;
  return { status: res.status, profiles: body.profiles, body };
}

test('kind=all (the default) is one flat list where every row carries its kind and settings', async () => {
  const all = await list();
  assert.equal(all.status, 200);
  assert.deepEqual(await list('?kind=all'), all);
  const kinds = new Set(all.profiles.map((p) => p.kind));
  assert.deepEqual([...kinds], ['printer', 'filament', 'process']);
  for (const p of all.profiles) {
    assert.deepEqual(Object.keys(p).filter((k) => ['id', 'kind', 'name', 'vendor', 'is_default', 'settings'].includes(k)).length, 6, p.id);
    assert.equal(typeof p.settings, 'object');
  }
  assert.ok(all.profiles.some((p) => p.id === 'generic-pla' && p.is_default));
  assert.ok(!all.profiles.some((p) => p.id === 'fdm-printer-common'), 'abstract bases are not listed');
});

test('kind and vendor filter the list', async () => {
  const printers = await list('?kind=printer');
  assert.ok(printers.profiles.length > 5);
  assert.ok(printers.profiles.every((p) => p.kind === 'printer'));
  const bambu = await list('?kind=printer&vendor=bambu%20lab');
  assert.deepEqual(bambu.profiles.map((p) => p.id).sort(), [
    'bambu-lab-a1-0.4',
    'bambu-lab-a1-mini-0.4',
    'bambu-lab-p1s-0.4',
    'bambu-lab-x1-carbon-0.4',
  ]);
  const processes = await list('?kind=process');
  assert.ok(processes.profiles.some((p) => p.id === '0.20mm-standard'));
  assert.deepEqual((await list('?vendor=Nobody')).profiles, []);
});

test('a bad or repeated kind is a 400 naming the parameter', async () => {
  const bad = await list('?kind=printers');
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, { error: 'query parameter "kind" must be one of printer, filament, process, all', code: 'ERR_BAD_REQUEST' });
  const twice = await list('?kind=printer&kind=process');
  assert.equal(twice.status, 400);
  assert.match(String(twice.body.error), /"kind" is given more than once/);
});

test('GET /api/profiles/:id returns the profile with its settings resolved; unknown ids are 404', async () => {
  const res = await fetch(`${svc.url}/api/profiles/bambu-lab-p1s-0.4`);
  assert.equal(res.status, 200);
  const p = (await res.json()) as ProfileRow;
  assert.equal(p.kind, 'printer');
  assert.equal(p.settings.gcode_flavor, 'bambu');
  assert.ok(typeof p.settings.machine_start_gcode === 'string' && p.settings.machine_start_gcode.length > 0, 'inherited settings are included');
  const missing = await fetch(`${svc.url}/api/profiles/no-such-profile`);
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { error: 'unknown profile "no-such-profile"', code: 'ERR_PROFILE_NOT_FOUND' });
});

test('user profiles and PrusaSlicer imports dropped into the config dir appear without a restart', async () => {
  assert.equal((await fetch(`${svc.url}/api/profiles/my-petg`)).status, 404);
  mkdirSync(path.join(svc.configDir, 'profiles'), { recursive: true });
  writeFileSync(path.join(svc.configDir, 'profiles', 'my-petg.json'), JSON.stringify(USER_FILAMENT));
  mkdirSync(path.join(svc.configDir, 'import', 'prusaslicer'), { recursive: true });
  copyFileSync(
    path.join(process.cwd(), 'test', 'fixtures', 'profiles', 'acme-bundle.ini'),
    path.join(svc.configDir, 'import', 'prusaslicer', 'acme.ini'),
  );
  const deadline = Date.now() + 10_000;
  let rows: ProfileRow[] = [];
  while (Date.now() < deadline) {
    rows = (await list('?kind=filament')).profiles;
    if (rows.some((p) => p.id === 'my-petg') && rows.some((p) => p.source === 'prusaslicer-import')) break;
    await sleep(50);
  }
  const mine = rows.find((p) => p.id === 'my-petg');
  assert.equal(mine?.source, 'user');
  assert.deepEqual(mine?.settings.nozzle_temperature, [235]);
  assert.ok(
    rows.some((p) => p.source === 'prusaslicer-import'),
    'the INI bundle was imported',
  );
  assert.equal((await fetch(`${svc.url}/api/profiles/my-petg`)).status, 200);
});
