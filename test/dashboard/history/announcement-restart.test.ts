/**
 * An announcement that waits when the box dies survives it: a dashboard in a child process
 * (farm-loop-child.ts, with the queue, history and the inventory) announces a queue copy for a
 * virtual Bambu printer that drops the start (Developer Mode off) and is killed with SIGKILL; the
 * print then starts on the printer while the box is down, and the dashboard started again on the
 * same data dir ties it to the job, the user and the plan from `history-announcements.json`,
 * and takes the planned grams off the spool in the tray. Also: the expiry rule of the store.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { JsonStores } from '../../../appliance/common/json-store.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { ANNOUNCEMENT_TTL_MS, StoredAnnouncements, type Announcement } from '../../../appliance/dashboard/history/announcements.js';
import { BambuTestClient } from '../../fixtures/bambu-mqtt-client.js';
import { eventually } from '../../fixtures/eventually.js';
import { startVirtualBambu } from '../../fixtures/virtual-bambu.js';
import { startChild, type Child } from '../farm-loop-child-process.js';
import { queueJob, TEST_TOKENS, type FarmPrinters } from '../farm-loop-farm.js';

const WAIT_MS = 60_000;
const quiet = createLogger({ name: 'test', level: 'error', write: () => {} });

function announcementsOn(dataDir: string): Record<string, Announcement> {
  const file = path.join(dataDir, 'history-announcements.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).printers as Record<string, Announcement>) : {};
}

test('a queue announcement waiting at a SIGKILL claims the print the printer starts while the box is down', async () => {
  const vb = await startVirtualBambu({ timeScale: 60 });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-announcement-restart-'));
  writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ queue: { retry_delay_ms: 60_000, round_interval_s: 1 }, rate_limit: { enabled: false } }),
  );
  let first: Child | undefined;
  let second: Child | undefined;
  let client: BambuTestClient | undefined;
  try {
    first = await startChild(dataDir);
    const dash = first.api;
    const connection = { host: vb.host, serial: vb.serial, access_code: vb.accessCode, ca: vb.caPem, mqtt_port: vb.mqttPort, ftps_port: vb.ftpsPort };
    const created = await dash.call('post', '/api/printers', { name: 'B9', type: 'bambu-lan', connection }, TEST_TOKENS.admin);
    assert.equal(created.status, 201, created.text);
    const printerId: string = created.json.id;
    const spool = await dash.call('post', '/api/filaments', { material: 'PLA', color_hex: '#ffffff', initial_weight_g: 1000, price: 20 });
    assert.equal(spool.status, 201, spool.text);
    const tray = { kind: 'ams', unit: 0, tray: 0 };
    assert.equal((await dash.call('put', `/api/filaments/${spool.json.id}`, { printer_id: printerId, slot: tray })).status, 200);
    await eventually('the printer online', async () => (await dash.call('get', `/api/printers/${printerId}/status`)).json.state === 'idle', WAIT_MS);

    await vb.setFault('developerModeOff', true);
    const printers = { ids: {}, names: {}, spools: {} } as unknown as FarmPrinters;
    const jobId = await queueJob(
      dash,
      { key: 'kept', kind: 'bambu', filaments: [{ material: 'PLA', color: '#FFFFFF', grams: 12 }], priority: 0, copies: 1 },
      printers,
    );
    assert.equal((await dash.call('post', `/api/printers/${printerId}/plate-cleared`)).status, 200);
    await eventually('the announcement on disk', () => announcementsOn(dataDir)[printerId]?.kind === 'queue', WAIT_MS);
    await first.kill();
    first = undefined;

    // The start reaches the printer while the box is down.
    await vb.setFault('developerModeOff', false);
    client = await BambuTestClient.connect(vb);
    client.request('print', 'project_file', {
      param: 'Metadata/plate_1.gcode',
      url: 'ftp://kept.gcode.3mf',
      file: 'kept.gcode.3mf',
      use_ams: true,
      ams_mapping: [0],
      subtask_name: 'kept',
      subtask_id: '42',
    });
    await client.report((p) => ['PREPARE', 'RUNNING'].includes(p.gcode_state), 'the print under way', 0, WAIT_MS);

    second = await startChild(dataDir);
    const again = second.api;
    const record = await eventually(
      'the finished record',
      async () => {
        const items = (await again.call('get', '/api/history?q=kept', undefined, TEST_TOKENS.view)).json?.items ?? [];
        return items.find((r: any) => r.state === 'finished') ?? null;
      },
      WAIT_MS,
    );
    assert.deepEqual(record.started_by, { kind: 'queue', user: 'print', job_id: jobId, copy: 1 });
    assert.deepEqual(
      record.filament.map((f: any) => [f.slot, f.spool_id, f.grams]),
      [[tray, spool.json.id, 12]],
    );
    let used: unknown;
    await eventually(
      'the spool booked',
      async () => {
        const items = (await again.call('get', '/api/filaments', undefined, TEST_TOKENS.view)).json?.items ?? [];
        used = items.find((s: any) => s.id === spool.json.id)?.used_weight_g;
        return used === 12;
      },
      WAIT_MS,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: used_weight_g ${JSON.stringify(used)}`);
    });
    assert.equal(announcementsOn(dataDir)[printerId], undefined);
    // The queue ends its copy when it hears of the record (history.added), just after the record is written.
    await eventually(
      'the copy done',
      async () => (await again.call('get', `/api/queue/${jobId}`, undefined, TEST_TOKENS.view)).json?.copies?.[0]?.state === 'done',
      WAIT_MS,
    );
  } finally {
    await client?.end();
    await first?.kill();
    await second?.kill();
    await vb.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an announcement expires 30 minutes after it was made, across a restart: dropped when the file is read', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'printyard-announcements-'));
  try {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const event = { printer_id: 'p1', file: 'a.gcode', user: 'ann', estimate_s: null, filaments: [], at: new Date(now).toISOString() };
    const first = await StoredAnnouncements.open(new JsonStores(dataDir, quiet), () => now);
    await first.set('p1', { kind: 'user', event, atMs: now });
    now += ANNOUNCEMENT_TTL_MS;
    const reopened = await StoredAnnouncements.open(new JsonStores(dataDir, quiet), () => now);
    assert.equal(reopened.get('p1')?.event.user, 'ann', 'still waiting at exactly 30 minutes');
    now += 1;
    assert.equal(reopened.get('p1'), null, 'expired a millisecond later');
    const third = await StoredAnnouncements.open(new JsonStores(dataDir, quiet), () => now);
    assert.equal(third.get('p1'), null);
    assert.deepEqual(announcementsOn(dataDir), {});
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
