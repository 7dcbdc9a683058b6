/**
 * A dashboard for the queue's route tests: the printers, the WebSocket and the queue, the test
 * authenticator, quick dispatch retries, and printers driven by a scripted driver of either type
 * (`bambu-lan` with an AMS the test loads, `marlin-serial` with the spools of a MemorySpools) that
 * takes files, starts them, fails uploads when told and ends prints when the test says so.
 * The tests with the virtual printers and the real drivers are farm.test.ts and restart.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type {
  CommandResult,
  DriverCapabilities,
  DriverContext,
  DriverState,
  PrinterDriver,
  StartOptions,
  UploadSource,
} from '../../../appliance/dashboard/printers/driver.js';
import { DriverRegistry } from '../../../appliance/dashboard/printers/driver-registry.js';
import type { PrinterRecord } from '../../../appliance/dashboard/printers/printer.js';
import type { AmsTray, AmsUpdate, PrinterStatus, PrintProgressState } from '../../../appliance/dashboard/printers/status.js';
import {
  historyFeature,
  inventoryFeature,
  liveFeature,
  nativeSlicingFeature,
  printersFeature,
  queueFeature,
} from '../../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture, type TestResponse } from '../../fixtures/dashboard.js';
import { eventually } from '../../fixtures/eventually.js';
import { MemorySpools } from '../../fixtures/memory-spools.js';
import { onlineStatus } from '../printers/fake-driver.js';

export { TEST_TOKENS };

/** A tray of the scripted AMS: global tray id, material, `#RRGGBB`. */
export type TrayLoad = [id: number, material: string, color: string];

export class ScriptedDriver implements PrinterDriver {
  readonly capabilities: DriverCapabilities;
  readonly uploads: string[] = [];
  readonly starts: Array<{ remoteName: string; options: StartOptions | undefined; content: string }> = [];
  /** Uploads that fail from now on, one per attempt. */
  failUploads = 0;
  nozzle = 0.4;
  private current: PrinterStatus;
  private trays: TrayLoad[] = [];
  private readonly files = new Map<string, string>();

  constructor(
    readonly printer: Readonly<PrinterRecord>,
    private readonly context: DriverContext,
  ) {
    this.capabilities = { upload: true, ams: printer.type === 'bambu-lan', camera: false, gcode_console: false };
    this.current = onlineStatus(printer.id);
  }

  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}

  status(): PrinterStatus {
    return this.current;
  }

  state(): DriverState {
    return { ams: this.printer.type === 'bambu-lan' ? this.ams() : null, details: { nozzle: { diameter: this.nozzle, type: null } } };
  }

  /** Loads the AMS (Bambu) and reports it, as `ams.update` does. */
  loadAms(trays: TrayLoad[]): void {
    this.trays = trays;
    this.context.events.ams(this.ams());
  }

  async command(): Promise<CommandResult> {
    return { lines: [] };
  }

  async upload(source: UploadSource, remoteName: string): Promise<void> {
    if (this.failUploads > 0) {
      this.failUploads--;
      throw new Error('the printer refused the upload (550)');
    }
    if (!('path' in source)) throw new Error('the scripted driver takes files by path');
    this.uploads.push(remoteName);
    this.files.set(remoteName, readFileSync(source.path, 'latin1'));
  }

  async start(remoteName: string, options?: StartOptions): Promise<void> {
    this.starts.push({ remoteName, options, content: this.files.get(remoteName) ?? '' });
    const file = this.printer.type === 'bambu-lan' ? remoteName.replace(/\.gcode\.3mf$/, '') : remoteName;
    const job = { file, progress: 0, layer: null, total_layers: null, elapsed_s: 0, remaining_s: null };
    this.setStatus({ state: 'printing', job });
    // A host print reports its own state from its first line, as the Marlin driver does; a Bambu printer only through its status.
    if (this.printer.type === 'marlin-serial') {
      this.context.events.progress({ ...job, printer_id: this.printer.id, updated_at: new Date().toISOString(), state: 'printing' });
    }
  }

  /** Ends the print the way the printer would report it. */
  end(state: Extract<PrintProgressState, 'finished' | 'failed' | 'cancelled'>): void {
    const job = this.current.job;
    if (!job) throw new Error('the scripted printer is not printing');
    this.context.events.progress({
      ...job,
      progress: state === 'finished' ? 100 : job.progress,
      printer_id: this.printer.id,
      updated_at: new Date().toISOString(),
      state,
    });
    const after: Record<typeof state, PrinterStatus['state']> = { finished: 'finished', failed: 'error', cancelled: 'idle' };
    this.setStatus({ state: after[state], job: { ...job, progress: state === 'finished' ? 100 : job.progress } });
  }

  setStatus(overrides: Partial<PrinterStatus>): void {
    this.current = onlineStatus(this.printer.id, overrides);
    this.context.events.status(this.current);
  }

  async pause(): Promise<void> {}
  async resume(): Promise<void> {}
  async stop(): Promise<void> {}

  private ams(): AmsUpdate {
    const units = new Map<number, AmsTray[]>();
    for (const [id, material, color] of this.trays) {
      const unit = Math.floor(id / 4);
      units.set(unit, [
        ...(units.get(unit) ?? []),
        { slot: id % 4, present: true, material, color: `${color.replace('#', '')}FF`, remaining_percent: 100 },
      ]);
    }
    return {
      printer_id: this.printer.id,
      units: [...units].map(([id, trays]) => ({ id, humidity: null, temperature: null, trays })),
      external: null,
      active_tray: null,
      updated_at: new Date().toISOString(),
    };
  }
}

export interface QueueDashboard {
  dash: DashboardFixture;
  shelf: MemorySpools;
  drivers: Map<string, ScriptedDriver>;
  /** Adds a printer through the API; resolves with its id once its driver runs. */
  addPrinter(name: string, type: 'bambu-lan' | 'marlin-serial', extra?: Record<string, unknown>): Promise<string>;
  driver(printerId: string): ScriptedDriver;
}

export interface QueueDashboardOptions {
  dataDir?: string;
  config?: Record<string, unknown>;
  /** With the built-in engine's feature, so that model jobs are sliced (no desktop slicer, no slicer service). */
  slicing?: boolean;
  /** Without the inventory feature (and the test's spool shelf): the queue must still run on what the printers report. */
  withoutInventory?: boolean;
}

export async function startQueueDashboard(options: QueueDashboardOptions = {}): Promise<QueueDashboard> {
  const registry = new DriverRegistry();
  const drivers = new Map<string, ScriptedDriver>();
  for (const type of ['bambu-lan', 'marlin-serial']) {
    registry.register(type, (printer, context) => {
      const driver = new ScriptedDriver(printer, context);
      drivers.set(printer.id, driver);
      return driver;
    });
  }
  const shelf = new MemorySpools();
  const dash = await startDashboardFixture({
    config: { queue: { retry_delay_ms: 20, round_interval_s: 1 }, rate_limit: { enabled: false }, ...options.config },
    createAuthenticator: testAuthenticator,
    logLevel: 'error',
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    features: [
      printersFeature,
      ...(options.withoutInventory ? [] : [inventoryFeature]),
      historyFeature,
      liveFeature,
      ...(options.slicing ? [nativeSlicingFeature] : []),
      queueFeature,
    ],
    services: {
      printers: { drivers: registry, intervals: { status: 0, progress: 0, ams: 0 } },
      ...(options.withoutInventory ? {} : { spools: shelf }),
      bridge: { searchDirs: [] },
    },
  });
  return {
    dash,
    shelf,
    drivers,
    async addPrinter(name, type, extra = {}) {
      const connection =
        type === 'bambu-lan' ? { host: '127.0.0.1', serial: `SER${name}`.padEnd(15, '0'), access_code: '12345678' } : { port: `/dev/tty-${name}` };
      const created = await dash.request('post', '/api/printers', { token: TEST_TOKENS.admin, body: { name, type, connection, ...extra } });
      assert.equal(created.status, 201, created.text);
      const id = created.json.id as string;
      for (let i = 0; i < 200 && !drivers.has(id); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return id;
    },
    driver(printerId) {
      const driver = drivers.get(printerId);
      if (!driver) throw new Error(`no driver for ${printerId}`);
      return driver;
    },
  };
}

/** Plain G-code with the header comments slicers write: filament types and colours, use, time, a thumbnail. */
export function gcodeFile(
  filaments: Array<[material: string, color: string, grams: number]>,
  options: { thumbnail?: Buffer; minutes?: number } = {},
): string {
  const lines = ['; generated by PrusaSlicer 2.7.1', 'G28', 'G1 X10 Y10 E1 F3000'];
  if (options.thumbnail) {
    const base64 = options.thumbnail.toString('base64');
    lines.unshift(`; thumbnail begin 16x16 ${base64.length}`, ...base64.match(/.{1,78}/g)!.map((l) => `; ${l}`), '; thumbnail end');
  }
  lines.push(
    `; filament used [mm] = ${filaments.map(([, , g]) => (g * 330).toFixed(2)).join(', ')}`,
    `; filament used [g] = ${filaments.map(([, , g]) => g.toFixed(2)).join(', ')}`,
    `; estimated printing time (normal mode) = ${options.minutes ?? 42}m 10s`,
    `; filament_colour = ${filaments.map(([, c]) => c).join(';')}`,
    `; filament_type = ${filaments.map(([m]) => m).join(';')}`,
  );
  return `${lines.join('\n')}\n`;
}

/** POSTs a job: the file under `fileName`, the other fields as form fields (objects as JSON). */
export async function postJob(
  dash: Pick<DashboardFixture, 'url'>,
  fileName: string,
  content: string | Uint8Array,
  fields: Record<string, unknown> = {},
  token: string = TEST_TOKENS.print,
): Promise<TestResponse> {
  const form = new FormData();
  form.set('file', new Blob([typeof content === 'string' ? content : Buffer.from(content)]), fileName);
  for (const [name, value] of Object.entries(fields)) form.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  const response = await fetch(`${dash.url}/api/queue`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

export const PLA_WHITE = gcodeFile([['PLA', '#FFFFFF', 12.5]]);

/** GET /api/queue's items. */
export async function jobs(dash: DashboardFixture): Promise<any[]> {
  const list = await dash.request('get', '/api/queue', { token: TEST_TOKENS.view });
  assert.equal(list.status, 200, list.text);
  return list.json.items;
}

export async function job(dash: DashboardFixture, id: string): Promise<any> {
  const got = await dash.request('get', `/api/queue/${id}`, { token: TEST_TOKENS.view });
  assert.equal(got.status, 200, got.text);
  return got.json;
}

/** Polls the job until `check` holds; returns it then. */
export function untilJob(dash: DashboardFixture, id: string, what: string, check: (job: any) => boolean): Promise<any> {
  return eventually(what, async () => {
    const current = await job(dash, id);
    return check(current) ? current : null;
  });
}

export const clearPlate = (dash: DashboardFixture, printerId: string, token = TEST_TOKENS.print) =>
  dash.request('post', `/api/printers/${printerId}/plate-cleared`, { token });
