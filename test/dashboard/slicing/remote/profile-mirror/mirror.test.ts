import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { JsonStores } from '../../../../../appliance/common/json-store.js';
import { createLogger } from '../../../../../appliance/common/logger.js';
import { PROFILE_MIRROR_STORE, ProfileMirror, type CatalogueEntry } from '../../../../../appliance/dashboard/slicing/remote/profile-mirror/mirror.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-profile-table-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const log = createLogger({ name: 'test', level: 'error' });

const entry = (kind: CatalogueEntry['kind'], name: string, extra: Partial<CatalogueEntry> = {}): CatalogueEntry => ({
  kind,
  name,
  vendor: 'Generic',
  remote_id: name.toLowerCase().replace(/ /g, '-'),
  settings_hash: 'h1',
  ...extra,
});

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));

test('add, update, archive, restore; idempotent on (kind, name); ids stable; stored on disk', async () => {
  const mirror = await ProfileMirror.open(new JsonStores(dir, log));
  const first = [entry('printer', 'Generic Marlin'), entry('filament', 'Generic PLA'), entry('process', '0.20mm Standard')];
  assert.deepEqual(await mirror.reconcile(first, at(0)), { added: 3, updated: 0, archived: 0, restored: 0, unchanged: 0, duplicates: 0 });
  const ids = new Map(mirror.list().map((row) => [row.name, row.id]));
  assert.deepEqual(await mirror.reconcile(first, at(5)), { added: 0, updated: 0, archived: 0, restored: 0, unchanged: 3, duplicates: 0 });

  // PLA's settings change, the process vanishes, a PETG appears; the same name as another kind is another identity.
  const second = [
    entry('printer', 'Generic Marlin'),
    entry('filament', 'Generic PLA', { settings_hash: 'h2' }),
    entry('filament', 'Generic PETG'),
    entry('process', 'Generic PLA'),
  ];
  assert.deepEqual(await mirror.reconcile(second, at(10)), { added: 2, updated: 1, archived: 1, restored: 0, unchanged: 1, duplicates: 0 });
  const archived = mirror.list({ includeArchived: true }).find((row) => row.name === '0.20mm Standard')!;
  assert.equal(archived.archived, true);
  assert.equal(archived.archived_at, at(10).toISOString());
  assert.equal(archived.last_seen, at(5).toISOString());
  assert.ok(!mirror.list().some((row) => row.name === '0.20mm Standard'), 'archived rows are left out unless asked for');

  assert.deepEqual(await mirror.reconcile([...second, entry('process', '0.20mm Standard')], at(15)), {
    added: 0,
    updated: 0,
    archived: 0,
    restored: 1,
    unchanged: 4,
    duplicates: 0,
  });
  const restored = mirror.list().find((row) => row.name === '0.20mm Standard')!;
  assert.deepEqual(
    [restored.archived, restored.archived_at, restored.id, restored.first_seen],
    [false, null, ids.get('0.20mm Standard'), at(0).toISOString()],
  );
  assert.equal(mirror.list().find((row) => row.name === 'Generic PLA' && row.kind === 'filament')!.id, ids.get('Generic PLA'));

  const reopened = await ProfileMirror.open(new JsonStores(dir, log));
  assert.deepEqual(reopened.list({ includeArchived: true }), mirror.list({ includeArchived: true }));
  assert.ok(readFileSync(path.join(dir, `${PROFILE_MIRROR_STORE}.json`), 'utf8').includes('"settings_hash": "h2"'));
  assert.deepEqual(
    mirror.list({ kind: 'process' }).map((row) => row.name),
    ['0.20mm Standard', 'Generic PLA'],
  );
});

test('two upstream entries with one (kind, name): the smaller upstream id wins whatever the order', async () => {
  const mirror = await ProfileMirror.open(new JsonStores(mkdtempSync(path.join(dir, 'dup-')), log));
  const a = entry('filament', 'My PLA', { remote_id: 'b-user', settings_hash: 'hb' });
  const b = entry('filament', 'My PLA', { remote_id: 'a-bundled', settings_hash: 'ha' });
  assert.deepEqual(await mirror.reconcile([a, b], at(0)), { added: 1, updated: 0, archived: 0, restored: 0, unchanged: 0, duplicates: 1 });
  assert.deepEqual(await mirror.reconcile([b, a], at(1)), { added: 0, updated: 0, archived: 0, restored: 0, unchanged: 1, duplicates: 1 });
  assert.equal(mirror.list()[0].remote_id, 'a-bundled');
});
