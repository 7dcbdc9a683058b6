/**
 * The history routes over known records: filters, order, pages (offset and cursor), one record,
 * the CSV export read back by Python's csv module, the stats, deleting; bad input and levels.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { validate } from '../../../appliance/common/json-schema.js';
import { pageSchema, recordSchema, statsSchema } from '../../../appliance/dashboard/history/schemas.js';
import type { HistoryRecord } from '../../../appliance/dashboard/history/record.js';
import { loginAs } from '../../fixtures/dashboard-auth.js';
import { expectError, startDashboardFixture, type DashboardFixture } from '../../fixtures/dashboard.js';
import { sampleRecord, used } from './sample-records.js';

let dash: DashboardFixture;
let viewer: string;
let operator: string;
let admin: string;

const r1 = sampleRecord('2026-01-05T10:00:00Z', 60, {
  file: 'Würfel, "v2" 日本.gcode',
  filament: [used('PLA', 10, 0.25)],
  cost: 0.25,
  estimate_s: 3000,
});
const r2 = sampleRecord('2026-01-20T08:00:00Z', 30, {
  printer_id: 'p2',
  printer_name: 'Printer two',
  printer_type: 'bambu-lan',
  file: 'bracket.gcode.3mf',
  state: 'failed',
  progress: 40,
  error: 'nozzle clog, "bad"\r\nline 2',
  started_by: { kind: 'user', user: 'bob', job_id: null, copy: null },
  filament: [used('PETG', 5, 0.15)],
  cost: 0.15,
});
const r3 = sampleRecord('2026-02-02T12:00:00Z', 120, {
  started_by: { kind: 'queue', user: 'bob', job_id: 'j1', copy: 1 },
  filament: [used('PLA', 30, 0.75), { ...used('PETG', 10, 0.3), slot: { kind: 'tool', tool: 1 } }],
  cost: 1.05,
  estimate_s: 7200,
});
const r4 = sampleRecord('2026-02-10T09:00:00Z', 10, {
  printer_id: 'p2',
  printer_name: 'Printer two',
  state: 'cancelled',
  progress: 12,
  started_by: { kind: 'printer', user: null, job_id: null, copy: null },
});
const r5 = sampleRecord('2026-02-15T09:00:00Z', 45, { printer_id: 'p2', printer_name: 'Printer two', estimate_s: 3600, filament: [used('PLA', 15)] });
const r6 = { ...sampleRecord('2026-03-01T00:00:00Z', 0), state: 'printing' as const, ended_at: null, duration_s: null, progress: 30 };
const r7 = sampleRecord('2026-03-02T00:00:00Z', 20, { state: 'interrupted', progress: 50, error: 'cable' });
const ALL = [r1, r2, r3, r4, r5, r6, r7];

const ids = (records: HistoryRecord[]) => records.map((r) => r.id);

async function list(query: string, token = viewer): Promise<{ items: HistoryRecord[]; total: number; next_cursor: string | null; offset: number }> {
  const response = await dash.request('GET', `/api/history${query}`, { token });
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(validate(pageSchema, response.json, 'page'), []);
  return response.json;
}

/** Parses CSV bytes with Python's csv module (utf-8-sig drops the BOM); rows as lists of strings. */
function parseCsv(bytes: Buffer): string[][] {
  const script =
    'import csv,io,json,sys\ntext=sys.stdin.buffer.read().decode("utf-8-sig")\nprint(json.dumps(list(csv.reader(io.StringIO(text,newline="")))))';
  const run = spawnSync('/usr/bin/python3', ['-c', script], { input: bytes });
  assert.equal(run.status, 0, run.stderr.toString());
  return JSON.parse(run.stdout.toString());
}

before(async () => {
  dash = await startDashboardFixture({ config: { rate_limit: { enabled: false } } });
  admin = await loginAs(dash, 'admin');
  operator = await loginAs(dash, 'print');
  viewer = await loginAs(dash, 'view');
  await dash.server.services.history.store().putMany(ALL);
});

after(async () => {
  await dash?.cleanup();
});

describe('GET /api/history', () => {
  test('newest start first, with the total; every record in the documented shape', async () => {
    const page = await list('');
    assert.deepEqual([ids(page.items), page.total, page.next_cursor], [ids([r7, r6, r5, r4, r3, r2, r1]), 7, null]);
    for (const record of page.items) assert.deepEqual(validate(recordSchema, record, 'record'), []);
  });

  test('sort by duration or end, either way; prints still running come last', async () => {
    assert.deepEqual(ids((await list('?sort=duration&order=asc')).items), ids([r4, r7, r2, r5, r1, r3, r6]));
    assert.deepEqual(ids((await list('?sort=duration')).items), ids([r3, r1, r5, r2, r7, r4, r6]));
    assert.deepEqual(ids((await list('?sort=ended_at&order=asc')).items), ids([r1, r2, r3, r4, r5, r7, r6]));
    assert.deepEqual(ids((await list('?order=asc')).items), ids(ALL));
  });

  test('pages by offset and by cursor', async () => {
    const first = await list('?limit=3');
    assert.deepEqual([ids(first.items), first.total], [ids([r7, r6, r5]), 7]);
    const second = await list(`?limit=3&cursor=${first.next_cursor}`);
    assert.deepEqual([ids(second.items), second.offset], [ids([r4, r3, r2]), 3]);
    const third = await list(`?limit=3&cursor=${second.next_cursor}`);
    assert.deepEqual([ids(third.items), third.next_cursor], [ids([r1]), null]);
    assert.deepEqual(ids((await list('?limit=3&offset=5')).items), ids([r2, r1]));
    const byDuration = await list('?sort=duration&order=asc&limit=4');
    assert.deepEqual(ids((await list(`?sort=duration&order=asc&limit=4&cursor=${byDuration.next_cursor}`)).items), ids([r1, r3, r6]));
  });

  test('filters: printer, state, starter, user, job, dates, material, text', async () => {
    const cases: [string, HistoryRecord[]][] = [
      ['?printer_id=p2', [r5, r4, r2]],
      ['?state=finished', [r5, r3, r1]],
      ['?state=printing', [r6]],
      ['?user=bob', [r3, r2]],
      ['?started_by=queue', [r3]],
      ['?job_id=j1', [r3]],
      ['?from=2026-02-01&to=2026-02-15', [r5, r4, r3]],
      ['?from=2026-02-10T09:00:00Z&to=2026-02-15T09:00:00Z', [r4]],
      ['?material=petg', [r3, r2]],
      [`?q=${encodeURIComponent('würfel')}`, [r1]],
      ['?q=BRACKET', [r2]],
      ['?printer_id=p1&state=finished&material=PLA', [r3, r1]],
    ];
    for (const [query, expected] of cases) {
      const page = await list(query);
      assert.deepEqual([ids(page.items), page.total], [ids(expected), expected.length], query);
    }
  });

  test('bad queries: 400 naming the parameter', async () => {
    for (const [query, where] of [
      ['?limit=0', 'query/limit'],
      ['?limit=501', 'query/limit'],
      ['?offset=-1', 'query/offset'],
      ['?offset=1&cursor=abc', 'query/cursor'],
      ['?cursor=not-a-cursor', 'query/cursor'],
      ['?state=lost', 'query/state'],
      ['?sort=size', 'query/sort'],
      ['?from=yesterday-ish', 'query/from'],
      ['?from=2026-02-10&to=2026-02-01', 'query/to'],
      ['?colour=red', 'query/colour'],
    ]) {
      const response = await dash.request('GET', `/api/history${query}`, { token: viewer });
      expectError(response, 400, 'ERR_VALIDATION');
      assert.ok(
        response.json.details.some((d: { path: string }) => d.path === where),
        `${query}: ${response.text}`,
      );
    }
  });
});

describe('one record, its picture, deleting', () => {
  test('GET /api/history/:id; 404 for an unknown id, 400 for one that is not an id; no picture is 404', async () => {
    const one = await dash.request('GET', `/api/history/${r3.id}`, { token: viewer });
    assert.deepEqual([one.status, one.json], [200, r3]);
    expectError(await dash.request('GET', '/api/history/000000000000000000', { token: viewer }), 404, 'ERR_NOT_FOUND');
    expectError(await dash.request('GET', '/api/history/..%2Fx', { token: viewer }), 400, 'ERR_VALIDATION');
    expectError(await dash.request('GET', `/api/history/${r3.id}/thumbnail.png`, { token: viewer }), 404, 'ERR_NOT_FOUND');
  });

  test('levels: nobody without credentials; view reads; only admin deletes, and a refused delete changes nothing', async () => {
    for (const path of ['/api/history', `/api/history/${r1.id}`, '/api/history/export', '/api/history/stats']) {
      expectError(await dash.request('GET', path), 401, 'ERR_UNAUTHORIZED');
    }
    expectError(await dash.request('DELETE', `/api/history/${r4.id}`, { token: viewer }), 403, 'ERR_FORBIDDEN');
    expectError(await dash.request('DELETE', `/api/history/${r4.id}`, { token: operator }), 403, 'ERR_FORBIDDEN');
    assert.equal((await list('')).total, 7);
    expectError(await dash.request('DELETE', '/api/history/000000000000000000', { token: admin }), 404, 'ERR_NOT_FOUND');
  });
});

describe('GET /api/history/export', () => {
  test('RFC 4180 with a BOM and CRLF, an attachment; Python reads back commas, quotes, line breaks and non-ASCII', async () => {
    const response = await fetch(`${dash.url}/api/history/export?order=asc`, { headers: { authorization: `Bearer ${viewer}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="print-history-\d{4}-\d{2}-\d{2}\.csv"/);
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    assert.ok(text.slice(1).startsWith('id,printer_id,printer_name,printer_type,file,state,'), text.slice(0, 80));
    assert.ok(text.endsWith('\r\n'));
    assert.equal(text.replace(/"[^"]*"/g, '').split('\n').length - 1, text.replace(/"[^"]*"/g, '').split('\r\n').length - 1, 'every line ends CRLF');
    const rows = parseCsv(bytes);
    const header = rows[0] as string[];
    const column = (row: string[], name: string) => row[header.indexOf(name)];
    assert.equal(rows.length, 8);
    assert.deepEqual(
      rows.slice(1).map((row) => column(row, 'id')),
      ids(ALL),
    );
    const first = rows[1] as string[];
    assert.deepEqual(
      ['file', 'state', 'started_by', 'user', 'duration_s', 'filament_g', 'materials', 'cost'].map((name) => column(first, name)),
      ['Würfel, "v2" 日本.gcode', 'finished', 'user', 'alice', '3600', '10', 'PLA', '0.25'],
    );
    assert.equal(column(rows[2] as string[], 'error'), 'nozzle clog, "bad"\r\nline 2');
    assert.deepEqual(
      ['job_id', 'copy', 'materials', 'filament'].map((name) => column(rows[3] as string[], name)),
      ['j1', '1', 'PLA PETG', 'T0 PLA 30g; T1 PETG 10g'],
    );
    assert.deepEqual(
      ['ended_at', 'duration_s'].map((name) => column(rows[6] as string[], name)),
      ['', ''],
    );
  });

  test('the same filters as the list; bad ones are 400 before anything is sent', async () => {
    const response = await fetch(`${dash.url}/api/history/export?state=failed`, { headers: { authorization: `Bearer ${viewer}` } });
    const rows = parseCsv(Buffer.from(await response.arrayBuffer()));
    assert.deepEqual(
      rows.slice(1).map((row) => row[0]),
      [r2.id],
    );
    expectError(await dash.request('GET', '/api/history/export?limit=5', { token: viewer }), 400, 'ERR_VALIDATION');
    expectError(await dash.request('GET', '/api/history/export?to=never-ish!', { token: viewer }), 400, 'ERR_VALIDATION');
  });
});

describe('GET /api/history/stats', () => {
  test('success rate, hours, filament and cost per printer, material and month; the estimate accuracy', async () => {
    const response = await dash.request('GET', '/api/history/stats', { token: viewer });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(validate(statsSchema, response.json, 'stats'), []);
    const stats = response.json;
    assert.deepEqual(stats.total, { prints: 6, finished: 3, success_rate: 0.5, print_hours: 4.75, filament_g: 70, cost: 1.45 });
    assert.deepEqual(stats.by_state, { finished: 3, cancelled: 1, failed: 1, interrupted: 1 });
    assert.deepEqual(stats.by_printer, {
      p1: { prints: 3, finished: 2, success_rate: 0.6667, print_hours: 3.333, filament_g: 50, cost: 1.3, printer_name: 'Printer one' },
      p2: { prints: 3, finished: 1, success_rate: 0.3333, print_hours: 1.417, filament_g: 20, cost: 0.15, printer_name: 'Printer two' },
    });
    assert.deepEqual(stats.by_material, {
      PETG: { prints: 2, finished: 1, success_rate: 0.5, print_hours: 2.5, filament_g: 15, cost: 0.45 },
      PLA: { prints: 3, finished: 3, success_rate: 1, print_hours: 3.75, filament_g: 55, cost: 1 },
    });
    assert.deepEqual(stats.by_month, {
      '2026-01': { prints: 2, finished: 1, success_rate: 0.5, print_hours: 1.5, filament_g: 15, cost: 0.4 },
      '2026-02': { prints: 3, finished: 2, success_rate: 0.6667, print_hours: 2.917, filament_g: 55, cost: 1.05 },
      '2026-03': { prints: 1, finished: 0, success_rate: 0, print_hours: 0.333, filament_g: 0, cost: 0 },
    });
    assert.deepEqual(stats.estimate_accuracy, { samples: 3, mean_ratio: 0.9833, median_ratio: 1 });
    const p2 = (await dash.request('GET', '/api/history/stats?printer_id=p2', { token: viewer })).json;
    assert.deepEqual([p2.total.prints, Object.keys(p2.by_printer)], [3, ['p2']]);
    expectError(await dash.request('GET', '/api/history/stats?sort=duration', { token: viewer }), 400, 'ERR_VALIDATION');
  });
});

describe('deleting', () => {
  test('admin deletes a record: gone from the list, the stats and the file after a restart', async () => {
    assert.equal((await dash.request('DELETE', `/api/history/${r4.id}`, { token: admin })).status, 204);
    expectError(await dash.request('GET', `/api/history/${r4.id}`, { token: viewer }), 404, 'ERR_NOT_FOUND');
    const dataDir = dash.dataDir;
    await dash.stop();
    dash = await startDashboardFixture({ dataDir, config: { rate_limit: { enabled: false } } });
    viewer = await loginAs(dash, 'view');
    const page = await list('');
    assert.deepEqual([page.total, page.items.some((r) => r.id === r4.id)], [6, false]);
    assert.equal((await dash.request('GET', '/api/history/stats', { token: viewer })).json.by_state.cancelled, 0);
  });
});
