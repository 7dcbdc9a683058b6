/**
 * The farm of farm-loop.test.ts: five virtual printers (three Bambu Lab with different AMS loads,
 * two Marlin with one spool each), the spools in their slots, the print-ready files with the
 * filament and grams the slicers write, and the test's own model of which printer may take
 * which job (`fits`), against which the dispatcher's choices are checked. Everything is set up
 * over HTTP, so the same code sets up the in-process dashboard and the one in a child process.
 */
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { gramsOf } from '../../appliance/dashboard/history/filament.js';
import { request, TEST_TOKENS, type TestResponse } from '../fixtures/dashboard.js';
import { eventually } from '../fixtures/eventually.js';
import { bambuGcode, startVirtualBambu, type VirtualBambu } from '../fixtures/virtual-bambu.js';
import { startVirtualMarlin, type VirtualMarlinFixture } from '../fixtures/virtual-marlin.js';
import { postJob } from './queue/queue-dashboard.js';

export { TEST_TOKENS };

/** A spool as the test creates it: what it holds, its weight and price, where it is loaded. */
export interface SpoolSpec {
  material: string;
  /** `#RRGGBB` */
  color: string;
  density: number;
  initial_weight_g: number;
  price: number;
}

export type PrinterName = 'B1' | 'B2' | 'B3' | 'M1' | 'M2';
export const PRINTER_NAMES: readonly PrinterName[] = ['B1', 'B2', 'B3', 'M1', 'M2'];

/** Slot label (`AMS1-T1`, `T0`) → spool, per printer. Bambu trays are AMS unit 0, trays 0–3. */
export const LOADS: Readonly<Record<PrinterName, Readonly<Record<string, SpoolSpec>>>> = {
  B1: {
    'AMS1-T1': { material: 'PLA', color: '#FFFFFF', density: 1.24, initial_weight_g: 1000, price: 20 },
    'AMS1-T2': { material: 'PETG', color: '#000000', density: 1.27, initial_weight_g: 1000, price: 25 },
  },
  B2: {
    'AMS1-T1': { material: 'PLA', color: '#FFFFFF', density: 1.24, initial_weight_g: 750, price: 18 },
    'AMS1-T2': { material: 'PLA', color: '#FF0000', density: 1.24, initial_weight_g: 1000, price: 22 },
  },
  B3: {
    'AMS1-T1': { material: 'PLA', color: '#0000FF', density: 1.24, initial_weight_g: 1000, price: 20 },
    'AMS1-T2': { material: 'PETG', color: '#000000', density: 1.27, initial_weight_g: 500, price: 15 },
    'AMS1-T3': { material: 'ASA', color: '#808080', density: 1.07, initial_weight_g: 1000, price: 30 },
  },
  M1: { T0: { material: 'PLA', color: '#FFFFFF', density: 1.24, initial_weight_g: 1000, price: 20 } },
  M2: { T0: { material: 'PETG', color: '#000000', density: 1.27, initial_weight_g: 1000, price: 25 } },
};

const isBambu = (name: PrinterName) => name.startsWith('B');

export interface Farm {
  bambu: Record<'B1' | 'B2' | 'B3', VirtualBambu>;
  marlin: Record<'M1' | 'M2', VirtualMarlinFixture>;
  /** `project_file` requests each Bambu printer received (its own count of starts), in order. */
  starts: Record<'B1' | 'B2' | 'B3', Array<Record<string, any>>>;
  stop(): Promise<void>;
}

function amsOf(name: 'B1' | 'B2' | 'B3') {
  const trays: Array<{ type: string; color: string } | null> = [null, null, null, null];
  for (const [label, spool] of Object.entries(LOADS[name]))
    trays[Number(label.slice(-1)) - 1] = { type: spool.material, color: spool.color.slice(1) };
  return { units: 1, trays };
}

/** The five virtual printers, fast: Bambu at 100× printer time, Marlin at 100× simulated time. */
export async function startFarm(): Promise<Farm> {
  const serials = { B1: '01P00A451300201', B2: '01P00A451300202', B3: '01P00A451300203' } as const;
  const [b1, b2, b3, m1, m2] = await Promise.all([
    ...(['B1', 'B2', 'B3'] as const).map((name) => startVirtualBambu({ serial: serials[name], timeScale: 100, ams: amsOf(name) })),
    startVirtualMarlin({ speed: 100 }),
    startVirtualMarlin({ speed: 100 }),
  ]);
  const bambu = { B1: b1 as VirtualBambu, B2: b2 as VirtualBambu, B3: b3 as VirtualBambu };
  const starts: Farm['starts'] = { B1: [], B2: [], B3: [] };
  for (const name of ['B1', 'B2', 'B3'] as const) {
    bambu[name].printer.on('request', (handled: { message: any }) => {
      if (handled.message?.print?.command === 'project_file') starts[name].push(handled.message.print);
    });
  }
  return {
    bambu,
    marlin: { M1: m1 as VirtualMarlinFixture, M2: m2 as VirtualMarlinFixture },
    starts,
    async stop() {
      await Promise.all([b1, b2, b3, m1, m2].map((p) => p.stop()));
    },
  };
}

/** HTTP to one dashboard (in this process or a child), JSON in and out. */
export interface Api {
  url: string;
  call(method: string, urlPath: string, body?: unknown, token?: string): Promise<TestResponse>;
}

export function api(url: string): Api {
  return {
    url,
    call: (method, urlPath, body, token = TEST_TOKENS.print) => request(url, method, urlPath, { token, ...(body === undefined ? {} : { body }) }),
  };
}

export interface FarmPrinters {
  ids: Record<PrinterName, string>;
  names: Record<string, PrinterName>;
  /** Spool ids by printer and slot label. */
  spools: Record<PrinterName, Record<string, number>>;
}

function slotOf(label: string) {
  if (label.startsWith('T')) return { kind: 'tool', tool: Number(label.slice(1)) };
  return { kind: 'ams', unit: 0, tray: Number(label.slice(-1)) - 1 };
}

/** Adds the printers, creates the spools (POST /api/filaments) and loads them (PUT printer_id + slot); waits until all are online. */
export async function setUpPrinters(dash: Api, farm: Farm): Promise<FarmPrinters> {
  const ids = {} as Record<PrinterName, string>;
  const spools = {} as Record<PrinterName, Record<string, number>>;
  for (const name of PRINTER_NAMES) {
    const body = isBambu(name)
      ? {
          type: 'bambu-lan',
          printer_profile: 'bambu-lab-p1s-0.4',
          connection: (({ host, serial, accessCode, caPem, mqttPort, ftpsPort }) => ({
            host,
            serial,
            access_code: accessCode,
            ca: caPem,
            mqtt_port: mqttPort,
            ftps_port: ftpsPort,
          }))(farm.bambu[name as 'B1']),
        }
      : { type: 'marlin-serial', printer_profile: 'generic-marlin-0.4', connection: { port: farm.marlin[name as 'M1'].hostPath } };
    const created = await dash.call('post', '/api/printers', { name, ...body }, TEST_TOKENS.admin);
    assert.equal(created.status, 201, created.text);
    ids[name] = created.json.id;
    spools[name] = {};
    for (const [label, spec] of Object.entries(LOADS[name])) {
      const spool = await dash.call('post', '/api/filaments', {
        material: spec.material,
        color_hex: spec.color,
        vendor: 'Farmfil',
        diameter: 1.75,
        density: spec.density,
        initial_weight_g: spec.initial_weight_g,
        price: spec.price,
      });
      assert.equal(spool.status, 201, spool.text);
      const loaded = await dash.call('put', `/api/filaments/${spool.json.id}`, { printer_id: ids[name], slot: slotOf(label) });
      assert.equal(loaded.status, 200, loaded.text);
      assert.equal(loaded.json.printer_id, ids[name]);
      spools[name][label] = spool.json.id;
    }
  }
  let seen: Array<{ name: string; online: boolean; state: string }> = [];
  await eventually(
    'the five printers online and ready',
    async () => {
      seen = (await dash.call('get', '/api/printers', undefined, TEST_TOKENS.view)).json?.items ?? [];
      return seen.length === 5 && seen.every((p) => p.online && ['idle', 'finished', 'error'].includes(p.state));
    },
    30_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${JSON.stringify(seen.map((p) => [p.name, p.online, p.state]))}`);
  });
  return { ids, names: Object.fromEntries(PRINTER_NAMES.map((n) => [ids[n], n])), spools };
}

/** One filament of a job: material, `#RRGGBB`, the slicer's grams (Bambu) or the extruded length (Marlin). */
export interface JobFilament {
  material: string;
  color: string;
  grams: number;
}

export interface JobSpec {
  key: string;
  kind: 'bambu' | 'marlin';
  filaments: JobFilament[];
  priority: number;
  copies: number;
  /** Printer name the job is pinned to. */
  pinned?: PrinterName;
  /** Queue position given at POST (else last). */
  position?: number;
  /** Printer minutes of the Bambu file (long prints are stopped by the test). */
  minutes?: number;
  layers?: number;
}

/** Millimetres a Marlin file extrudes: a fixed 400 mm (net of its retractions). */
export const MARLIN_EXTRUDED_MM = 400;

/** G-code for a Marlin printer: slicer header comments (type, colour, grams, length, time), then 400 mm of extrusion. */
export function marlinFile(f: JobFilament, density: number): string {
  const lines = ['; generated by PrusaSlicer 2.7.1', 'M302 S0', 'G28', 'G90', 'M82', 'G92 E0'];
  for (let k = 1; k <= 20; k++) {
    const e = (k * MARLIN_EXTRUDED_MM) / 20;
    lines.push(`G1 X${k % 2 === 0 ? 60 : 20} Y${20 + k} E${e.toFixed(3)} F6000`);
    // A retraction and its return: nothing net, as a slicer's travel moves.
    lines.push(`G1 E${(e - 1).toFixed(3)} F2400`, `G1 E${e.toFixed(3)} F2400`);
  }
  lines.push('M107');
  const grams = gramsOf(MARLIN_EXTRUDED_MM, 1.75, density);
  lines.push(
    `; filament used [mm] = ${MARLIN_EXTRUDED_MM.toFixed(2)}`,
    `; filament used [g] = ${grams.toFixed(2)}`,
    '; estimated printing time (normal mode) = 1m 10s',
    `; filament_colour = ${f.color}`,
    `; filament_type = ${f.material}`,
  );
  return `${lines.join('\n')}\n`;
}

/** A Bambu project: plate 1's G-code with BambuStudio's header, and the slice info with each filament's used grams. */
export function bambuProject(spec: JobSpec): Uint8Array {
  const filaments = spec.filaments;
  const header = [
    `; filament used [g] = ${filaments.map((f) => f.grams.toFixed(2)).join(', ')}`,
    `; filament_type = ${filaments.map((f) => f.material).join(';')}`,
    `; filament_colour = ${filaments.map((f) => f.color).join(';')}`,
  ].join('\n');
  const tags = filaments
    .map(
      (f, i) =>
        `<filament id="${i + 1}" type="${f.material}" color="${f.color}" used_m="${(f.grams / 3).toFixed(2)}" used_g="${f.grams.toFixed(2)}"/>`,
    )
    .join('');
  return zipSync({
    'Metadata/plate_1.gcode': strToU8(`${header}\n${bambuGcode(spec.layers ?? 4, spec.minutes ?? 2)}`),
    'Metadata/slice_info.config': strToU8(
      `<config><plate><metadata key="index" value="1"/><metadata key="prediction" value="${(spec.minutes ?? 2) * 60}"/>${tags}</plate></config>`,
    ),
  });
}

/** POSTs the job with its file; its requirements name its filaments and, when pinned, its printer. */
export async function queueJob(dash: Api, spec: JobSpec, printers: FarmPrinters): Promise<string> {
  const file = spec.kind === 'bambu' ? bambuProject(spec) : marlinFile(spec.filaments[0], densityOf(spec.filaments[0].material));
  const requirements = {
    filaments: spec.filaments.map((f, i) => ({ filament: i + 1, material: f.material, color_hex: f.color })),
    ...(spec.pinned ? { printer_ids: [printers.ids[spec.pinned]] } : {}),
  };
  const fields: Record<string, unknown> = { name: spec.key, priority: spec.priority, copies: spec.copies, requirements };
  if (spec.position !== undefined) fields.position = spec.position;
  const added = await postJob(dash, `${spec.key}.${spec.kind === 'bambu' ? 'gcode.3mf' : 'gcode'}`, file, fields);
  assert.equal(added.status, 201, added.text);
  return added.json.id;
}

/** The density of a material's spools in the farm. */
export function densityOf(material: string): number {
  const spool = PRINTER_NAMES.flatMap((n) => Object.values(LOADS[n])).find((s) => s.material === material);
  return spool?.density ?? 1.24;
}

/** The test's own rule: the printer prints the job's format, is the one pinned (if any) and holds each filament in some slot. */
export function fits(spec: JobSpec, printer: PrinterName): boolean {
  if ((spec.kind === 'bambu') !== isBambu(printer)) return false;
  if (spec.pinned && spec.pinned !== printer) return false;
  const loads = Object.values(LOADS[printer]);
  return spec.filaments.every((f, i) => {
    if (!isBambu(printer)) return LOADS[printer][`T${i}`]?.material === f.material && LOADS[printer][`T${i}`]?.color === f.color;
    return loads.some((s) => s.material === f.material && s.color === f.color);
  });
}

/** The slot label (`AMS1-T2`, `T0`) of a slot as the API shows it. */
export function labelOf(slot: { kind: string; tool?: number; unit?: number; tray?: number }): string {
  return slot.kind === 'tool' ? `T${slot.tool}` : `AMS${(slot.unit ?? 0) + 1}-T${(slot.tray ?? 0) + 1}`;
}
