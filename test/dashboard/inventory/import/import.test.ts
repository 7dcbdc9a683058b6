import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inventoryFeature } from '../../../../appliance/dashboard/features.js';
import type { SpoolUpdate } from '../../../../appliance/dashboard/inventory/inventory.js';
import { MAX_IMPORT_BYTES } from '../../../../appliance/dashboard/inventory/import/table.js';
import { expectError, startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture } from '../../../fixtures/dashboard.js';
import { FILAMENTS_CSV, SPOOLS_CSV, SPOOLS_JSON, VENDORS_JSON } from './exports.js';

let dash: DashboardFixture;
before(async () => {
  dash = await startDashboardFixture({
    features: [inventoryFeature],
    createAuthenticator: testAuthenticator,
    config: { rate_limit: { enabled: false } },
    logLevel: 'warn',
  });
});
after(() => dash.cleanup());

const IMPORT = '/api/filaments/import';

/** Sends the text as the body itself, with its type. */
const send = (text: string | Buffer, type: string, token: string = TEST_TOKENS.admin) =>
  dash.request('post', IMPORT, { token, body: text, headers: { 'content-type': type } });

/** Uploads the text as the form's `file` part, as a browser does. */
async function upload(text: string, fileName: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([text], { type }), fileName);
  const response = await fetch(dash.url + IMPORT, { method: 'POST', headers: { authorization: `Bearer ${TEST_TOKENS.admin}` }, body: form });
  return { status: response.status, json: (await response.json()) as any };
}

const counts = (result: { created: Record<string, unknown[]> }) =>
  Object.fromEntries(Object.entries(result.created).map(([kind, list]) => [kind, list.length]));

const inventory = () => dash.server.services.inventory.data;

const v1 = async (path: string) => (await dash.request('get', `/api/v1/${path}`, { token: TEST_TOKENS.view })).json;

test('a CSV export of spools lands with its filaments and vendor; a bad row fails naming its field; spool.update for each', async () => {
  const updates: SpoolUpdate[] = [];
  const off = dash.server.context.bus.on('spool.update', (u) => void updates.push(u));
  const response = await upload(SPOOLS_CSV, 'spoolman-spools.csv', 'text/csv');
  off();
  assert.equal(response.status, 200, JSON.stringify(response.json));
  const result = response.json;
  assert.equal(result.kind, 'spools');
  assert.deepEqual(counts(result), { vendors: 1, filaments: 2, spools: 3 });
  assert.deepEqual(result.skipped, []);
  assert.equal(result.failed.length, 1);
  assert.deepEqual({ ...result.failed[0], reason: undefined }, { row: 4, spoolman_id: 4, field: 'filament.density', reason: undefined });
  assert.match(result.failed[0].reason, /^row 4: filament\.density is not a number \("abc"\)/);
  assert.deepEqual(updates.map((u) => u.spool.id).sort(), result.created.spools.map((c: { id: number }) => c.id).sort());

  const [first, second, third] = result.created.spools.map((c: { id: number }) => c.id);
  const spool = await v1(`spool/${first}`);
  assert.equal(spool.comment, 'He said "dry it first", then printed');
  assert.equal(spool.used_weight, 250.5);
  assert.equal(spool.initial_weight, 1000);
  assert.equal(spool.location, 'Shelf A');
  assert.equal(spool.lot_nr, 'L2403');
  assert.equal(spool.price, 21.5);
  assert.equal(spool.registered, '2024-03-01T09:15:00Z', "Spoolman's registration time is kept");
  assert.equal(spool.first_used, '2024-03-02T10:00:00Z');
  assert.deepEqual(spool.extra, { nozzle: '"0.4"' });
  assert.equal(spool.filament.name, 'PolyTerra™ PLA, Matte');
  assert.equal(spool.filament.article_number, 'PM70820');
  assert.equal(spool.filament.settings_extruder_temp, 215);
  assert.deepEqual(spool.filament.extra, { finish: '"matte"' });
  assert.equal(spool.filament.vendor.name, 'Polymaker');
  assert.equal(spool.filament.vendor.comment, 'Ships from "Suzhou",\nusually in a week');
  assert.deepEqual(spool.filament.vendor.extra, { country: '"CN"' });

  const archived = await v1(`spool/${second}?`);
  assert.equal(archived.archived, true);
  assert.equal(archived.comment, '-5 °C storage, keep dry', "the spreadsheet guard's quote is not part of the value");
  assert.equal(archived.filament.id, spool.filament.id, 'two spools of one Spoolman filament share one filament');

  const rainbow = dash.server.services.inventory.get(third);
  assert.deepEqual(rainbow?.multi_color_hexes, ['#ff0000', '#00ff00']);
  assert.equal(rainbow?.vendor, null);
  assert.equal(rainbow?.initial_weight_g, 750, "no initial weight: the filament's weight");
  assert.equal((await v1(`filament/${(await v1(`spool/${third}`)).filament.id}`)).multi_color_direction, 'longitudinal');
});

test('importing the same export again adds nothing: every spool is skipped as imported before', async () => {
  const before = structuredClone(inventory());
  const response = await send(SPOOLS_CSV, 'text/csv; charset=utf-8');
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(counts(response.json), { vendors: 0, filaments: 0, spools: 0 });
  assert.deepEqual(
    response.json.skipped.map((s: { row: number }) => s.row),
    [1, 2, 3],
  );
  for (const s of response.json.skipped) assert.match(s.reason, /^imported before: spool \d+ \([2-9A-Z]{4,5}\)$/);
  assert.equal(response.json.failed.length, 1);
  assert.deepEqual(inventory().spools, before.spools);
});

test('a JSON export finds the vendor by name in any case; a spool listed twice is created once', async () => {
  const vendors = inventory().vendors.length;
  const twice = JSON.stringify([...JSON.parse(SPOOLS_JSON), ...JSON.parse(SPOOLS_JSON)]);
  const response = await send(twice, 'application/json');
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(counts(response.json), { vendors: 0, filaments: 1, spools: 1 });
  assert.deepEqual(response.json.skipped, [{ row: 2, spoolman_id: 1, reason: 'the same spool as row 1' }]);
  assert.equal(inventory().vendors.length, vendors);
  const view = dash.server.services.inventory.get(response.json.created.spools[0].id);
  assert.equal(view?.vendor, 'Polymaker');
  assert.equal(view?.spool_weight_g, 160);
  assert.equal(view?.used_weight_g, 10.25);
  // Spoolman id 1 again, but of another server (another registration time): not the CSV's spool 1.
  assert.notEqual(inventory().spools.find((s) => s.id === view?.id)?.import_ref, inventory().spools[0].import_ref);
});

test('exports of filaments and of vendors: the ones there are skipped, the others created', async () => {
  const filaments = await upload(FILAMENTS_CSV, 'filaments.csv');
  assert.equal(filaments.status, 200, JSON.stringify(filaments.json));
  assert.equal(filaments.json.kind, 'filaments');
  assert.deepEqual(counts(filaments.json), { vendors: 1, filaments: 1, spools: 0 });
  assert.equal(filaments.json.skipped.length, 1);
  assert.match(filaments.json.skipped[0].reason, /^the same filament is filament \d+$/);
  const abs = await v1(`filament/${filaments.json.created.filaments[0].id}`);
  assert.equal(abs.name, 'Černá');
  assert.equal(abs.diameter, 2.85);
  assert.equal(abs.vendor.name, 'Fillamentum');

  // A file without an extension or type: a JSON export is told by its first character.
  const vendors = await upload(VENDORS_JSON, 'export');
  assert.equal(vendors.status, 200, JSON.stringify(vendors.json));
  assert.equal(vendors.json.kind, 'vendors');
  assert.deepEqual(counts(vendors.json), { vendors: 1, filaments: 0, spools: 0 });
  assert.deepEqual(
    vendors.json.skipped.map((s: { row: number; reason: string }) => [s.row, s.reason.replace(/\d+$/, 'N')]),
    [
      [1, 'a vendor of that name is vendor N'],
      [2, 'a vendor of that name is vendor N'],
    ],
  );
  const greek = await v1(`vendor/${vendors.json.created.vendors[0].id}`);
  assert.equal(greek.name, 'Ελληνικό Νήμα');
  assert.equal(greek.comment, 'Ελληνικά');
});

test('a file that cannot be read imports nothing and answers 400 naming the problem', async () => {
  const before = structuredClone(inventory());
  // Good rows first (two vendor comments span two lines each): a quote left open at the end still leaves the whole file out.
  const goodRowsThenOpenQuote = `${SPOOLS_CSV}False,"left open\r\n`;
  const cases: [string | Buffer, string, RegExp][] = [
    ['{"id": 1', 'application/json', /not valid JSON/],
    ['{"id": 1}', 'application/json', /not a list/],
    [goodRowsThenOpenQuote, 'text/csv', /line 8: a quoted cell is not closed/],
    ['id,name\r\n1,"Polymaker\r\n', 'text/csv', /line 2: a quoted cell is not closed/],
    ['id,id\r\n1,2\r\n', 'text/csv', /names the column "id" twice/],
    ['colour,size\r\nred,3\r\n', 'text/csv', /not a Spoolman export/],
    ['   ', 'text/csv', /is empty/],
    [Buffer.from([0x69, 0x64, 0x0a, 0xff, 0xfe]), 'text/csv', /not UTF-8/],
    ['[]', 'text/plain', /multipart\/form-data, application\/json or text\/csv/],
  ];
  for (const [body, type, pattern] of cases) expectError(await send(body, type), 400, 'ERR_VALIDATION', pattern);
  const noFile = new FormData();
  noFile.append('other', 'x');
  const response = await fetch(dash.url + IMPORT, { method: 'POST', headers: { authorization: `Bearer ${TEST_TOKENS.admin}` }, body: noFile });
  assert.equal(response.status, 400);
  expectError(await send(Buffer.alloc(MAX_IMPORT_BYTES + 1, 0x20), 'text/csv'), 413, 'ERR_PAYLOAD_TOO_LARGE');
  assert.deepEqual(inventory(), before);
});

test('rows that cannot be read fail alone: a row of the wrong width, a JSON item that is not an object, a spool without an id', async () => {
  const csv = 'id,name,comment\r\n1,Prusament\r\n2,"Fiberlogy, S.A.",ok\r\n';
  const vendors = await send(csv, 'text/csv');
  assert.equal(vendors.status, 200, vendors.text);
  assert.deepEqual(vendors.json.failed, [{ row: 1, spoolman_id: null, field: null, reason: 'row 1: line 2 has 2 cells; the header has 3' }]);
  assert.equal(vendors.json.created.vendors.length, 1);
  const spools = await send(JSON.stringify([42, { 'filament.density': 1.24, 'filament.diameter': 1.75, used_weight: 5 }]), 'application/json');
  assert.deepEqual(
    spools.json.failed.map((f: { row: number; field: string | null }) => [f.row, f.field]),
    [
      [1, null],
      [2, 'id'],
    ],
  );
  assert.match(spools.json.failed[1].reason, /^row 2: id is required/);
});

test('admin imports; view and print are refused, no credentials is 401', async () => {
  assert.equal((await send('[]', 'application/json', TEST_TOKENS.view)).status, 403);
  assert.equal((await send('[]', 'application/json', TEST_TOKENS.print)).status, 403);
  assert.equal((await dash.request('post', IMPORT, { body: '[]', headers: { 'content-type': 'application/json' } })).status, 401);
  const empty = await send('\ufeff[]', 'application/json');
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual(empty.json, { kind: null, created: { vendors: [], filaments: [], spools: [] }, skipped: [], failed: [] });
});
