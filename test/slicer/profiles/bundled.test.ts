import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { buildTemplateVars, withLayer } from '../../../appliance/slicer/engine/gcode/template-vars.js';
import { renderTemplate } from '../../../appliance/slicer/engine/gcode/template/index.js';
import type { AppError } from '../../../appliance/common/errors.js';
import { repoRoot } from '../../../appliance/common/paths.js';
import { bundledProfilesDir, loadBundledProfiles } from '../../../appliance/slicer/profiles/bundled.js';
import { ProfileCatalogue } from '../../../appliance/slicer/profiles/catalogue.js';
import type { PrintConfig } from '../../../appliance/slicer/profiles/schema.js';

let catalogue: ProfileCatalogue;
before(async () => {
  catalogue = await ProfileCatalogue.bundled();
});

const FIXED_IDS = {
  printer: [
    'generic-marlin-0.4',
    'generic-klipper-0.4',
    'bambu-lab-x1-carbon-0.4',
    'bambu-lab-p1s-0.4',
    'bambu-lab-a1-0.4',
    'bambu-lab-a1-mini-0.4',
    'prusa-mk4-0.4',
    'prusa-mk3s-0.4',
    'prusa-mini-0.4',
    'creality-ender-3-v2-0.4',
    'creality-ender-3-s1-0.4',
    'creality-k1-0.4',
    'voron-2.4-350-0.4',
  ],
  filament: [
    'generic-pla',
    'generic-petg',
    'generic-abs',
    'generic-asa',
    'generic-tpu',
    'generic-pa',
    'bambu-pla-basic',
    'prusament-pla',
    'prusament-petg',
    'polymaker-polyterra-pla',
    'esun-petg',
  ],
  process: ['0.08mm-extra-fine', '0.12mm-fine', '0.16mm-optimal', '0.20mm-standard', '0.24mm-draft', '0.28mm-extra-draft'],
} as const;

function configFor(printerId: string, filamentIds: string[] = ['generic-pla'], processId = '0.20mm-standard'): PrintConfig {
  return catalogue.resolveConfig({ printerId, filamentIds, processId });
}

test('the bundled folder is found from the repository root, not from the compiled file', () => {
  assert.equal(repoRoot(), process.cwd());
  assert.equal(bundledProfilesDir(), path.join(process.cwd(), 'appliance', 'slicer', 'profiles', 'bundled'));
});

test('every id other modules rely on exists, is selectable and has the right kind', () => {
  for (const [kind, ids] of Object.entries(FIXED_IDS)) {
    const listed = new Set(catalogue.list({ kind: kind as 'printer' }).map((s) => s.id));
    for (const id of ids) assert.ok(listed.has(id), `${kind} ${id}`);
  }
});

test('abstract bases are in the catalogue but never listed', async () => {
  const all = await loadBundledProfiles();
  const abstract = all.filter((p) => !p.instantiable).map((p) => p.id);
  assert.ok(abstract.includes('fdm-printer-common') && abstract.includes('bambu-lab-x1-p1-common'));
  const listed = new Set(catalogue.list().map((s) => s.id));
  for (const id of abstract) assert.ok(!listed.has(id), id);
  assert.equal(catalogue.get('fdm-printer-common').instantiable, false);
});

test('a catalogue of the profiles one job names resolves every fixed id as the whole catalogue does', async () => {
  for (const printerId of FIXED_IDS.printer) {
    const jobs: [string[], string][] = [
      [['generic-pla'], '0.20mm-standard'],
      [['prusament-petg'], '0.12mm-fine'],
    ];
    // An AMS takes a filament per slot.
    if (printerId.startsWith('bambu-lab')) jobs.push([['bambu-pla-basic', 'generic-petg'], '0.16mm-optimal']);
    for (const [filamentIds, processId] of jobs) {
      const request = { printerId, filamentIds, processId, overrides: { sparse_infill_density: '15%' } };
      const job = await ProfileCatalogue.bundledFor([printerId, ...filamentIds, processId]);
      assert.deepEqual(job.resolveConfig(request), catalogue.resolveConfig(request), printerId);
      for (const id of [printerId, ...filamentIds, processId]) assert.equal(job.name(id), catalogue.get(id).name, id);
    }
  }
});

test('a catalogue of named profiles holds those and their parents only, and calls other ids unknown', async () => {
  const job = await ProfileCatalogue.bundledFor(['bambu-pla-basic', 'no-such-printer']);
  // bambu-pla-basic inherits generic-pla, which inherits the abstract filament base.
  assert.deepEqual(
    job
      .list()
      .map((s) => s.id)
      .sort(),
    ['bambu-pla-basic', 'generic-pla'],
  );
  assert.equal(job.get('fdm-filament-common').instantiable, false);
  assert.throws(
    () => job.resolveConfig({ printerId: 'no-such-printer', filamentIds: ['bambu-pla-basic'], processId: '0.20mm-standard' }),
    (err: AppError) => err.status === 404 && /unknown printer profile "no-such-printer"/.test(err.message),
  );
  const none = await ProfileCatalogue.bundledFor(['no-such-printer']);
  assert.throws(
    () => none.name('no-such-printer'),
    (err: AppError) => err.status === 404,
  );
  assert.deepEqual(none.list(), []);
});

test('exactly one default per kind', () => {
  for (const kind of ['printer', 'filament', 'process'] as const) {
    assert.deepEqual(catalogue.list({ kind }).filter((s) => s.is_default).length, 1, kind);
  }
  assert.ok(catalogue.list({ kind: 'process' }).find((s) => s.id === '0.20mm-standard')!.is_default);
});

test('machines match their published specifications', () => {
  const spec: Record<string, { bed: [number, number]; height: number; flavour: string; model?: string; slots?: number }> = {
    'bambu-lab-x1-carbon-0.4': { bed: [256, 256], height: 250, flavour: 'bambu', model: 'BL-P001', slots: 16 },
    'bambu-lab-p1s-0.4': { bed: [256, 256], height: 250, flavour: 'bambu', model: 'C12', slots: 16 },
    'bambu-lab-a1-0.4': { bed: [256, 256], height: 256, flavour: 'bambu', model: 'N2S', slots: 16 },
    'bambu-lab-a1-mini-0.4': { bed: [180, 180], height: 180, flavour: 'bambu', model: 'N1', slots: 16 },
    'prusa-mk4-0.4': { bed: [250, 210], height: 220, flavour: 'marlin2' },
    'prusa-mk3s-0.4': { bed: [250, 210], height: 210, flavour: 'marlin' },
    'prusa-mini-0.4': { bed: [180, 180], height: 180, flavour: 'marlin2' },
    'creality-ender-3-v2-0.4': { bed: [220, 220], height: 250, flavour: 'marlin2' },
    'creality-ender-3-s1-0.4': { bed: [220, 220], height: 270, flavour: 'marlin2' },
    'creality-k1-0.4': { bed: [220, 220], height: 250, flavour: 'klipper' },
    'voron-2.4-350-0.4': { bed: [350, 350], height: 340, flavour: 'klipper' },
    'generic-marlin-0.4': { bed: [220, 220], height: 250, flavour: 'marlin2' },
    'generic-klipper-0.4': { bed: [250, 250], height: 250, flavour: 'klipper' },
  };
  for (const [id, want] of Object.entries(spec)) {
    const c = configFor(id);
    assert.deepEqual(
      c.printable_area,
      [
        [0, 0],
        [want.bed[0], 0],
        [want.bed[0], want.bed[1]],
        [0, want.bed[1]],
      ],
      id,
    );
    assert.equal(c.printable_height, want.height, id);
    assert.equal(c.gcode_flavor, want.flavour, id);
    assert.deepEqual(c.nozzle_diameter, [0.4], id);
    if (want.model) assert.equal(c.printer_model_id, want.model, id);
    assert.equal(c.max_filaments, want.slots ?? 1, id);
  }
  const marlin = catalogue.get('generic-marlin-0.4');
  assert.match(marlin.name, /Generic Marlin/);
  assert.equal(marlin.settings.use_relative_e_distances, true);
});

test('filaments carry real material data, their temperatures inside their own ranges', () => {
  const density: Record<string, number> = {
    'generic-pla': 1.24,
    'generic-petg': 1.27,
    'generic-abs': 1.04,
    'generic-asa': 1.07,
    'generic-tpu': 1.21,
    'generic-pa': 1.12,
    'bambu-pla-basic': 1.26,
    'polymaker-polyterra-pla': 1.31,
  };
  for (const id of FIXED_IDS.filament) {
    const s = catalogue.get(id).settings;
    if (density[id] !== undefined) assert.deepEqual(s.filament_density, [density[id]], id);
    const [low, high] = [s.nozzle_temperature_range_low![0]!, s.nozzle_temperature_range_high![0]!];
    for (const t of [s.nozzle_temperature![0]!, s.nozzle_temperature_initial_layer![0]!]) assert.ok(t >= low && t <= high, `${id} ${t}`);
    assert.ok(s.filament_max_volumetric_speed![0]! > 0, id);
  }
  assert.ok(catalogue.get('generic-tpu').settings.filament_max_volumetric_speed![0]! < 5);
  assert.ok(catalogue.get('generic-abs').settings.fan_max_speed![0]! < catalogue.get('generic-pla').settings.fan_max_speed![0]!);
});

test('process layer heights match their names and shells stay about 0.6 mm or more', () => {
  for (const id of FIXED_IDS.process) {
    const s = catalogue.get(id).settings;
    assert.equal(s.layer_height, Number(id.slice(0, 4)), id);
    assert.ok(s.layer_height! * s.top_shell_layers! >= 0.7, `${id} top`);
    assert.ok(s.layer_height! * s.bottom_shell_layers! >= 0.55, `${id} bottom`);
  }
});

function varsFor(config: PrintConfig, layer: Record<string, number> = {}) {
  const vars = buildTemplateVars(config, {
    initialExtruder: 0,
    usedExtruders: config.filament_type.map((_, i) => i),
    totalLayerCount: 40,
    firstLayerPrintMin: [60, 70],
    firstLayerPrintMax: [140, 150],
    totalToolchanges: config.filament_type.length - 1,
    inputFilenameBase: 'part',
    date: new Date(2024, 0, 2, 3, 4, 5),
  });
  return withLayer(vars, {
    layer_num: 12,
    layer_z: 2.6,
    max_layer_z: 2.6,
    current_extruder: 0,
    previous_extruder: 0,
    next_extruder: config.filament_type.length - 1,
    ...layer,
  });
}

const SCRIPTS = [
  'machine_start_gcode',
  'machine_end_gcode',
  'layer_change_gcode',
  'before_layer_change_gcode',
  'change_filament_gcode',
  'machine_pause_gcode',
] as const;

function render(id: string, key: (typeof SCRIPTS)[number], filaments = ['generic-pla']): string {
  const config = configFor(id, filaments);
  return renderTemplate(config[key], varsFor(config), `${id} ${key}`);
}

test('every printer script renders with the placeholder contract, for one filament and for an AMS', () => {
  for (const { id } of catalogue.list({ kind: 'printer' })) {
    const filaments = id.startsWith('bambu-lab') ? [['generic-pla'], ['generic-pla', 'generic-petg', 'generic-abs']] : [['generic-pla']];
    for (const slots of filaments) for (const key of SCRIPTS) assert.doesNotThrow(() => render(id, key, slots), `${id} ${key}`);
  }
});

test('Marlin-style start scripts heat, home, and prime inside the printable area', () => {
  for (const { id } of catalogue.list({ kind: 'printer' })) {
    const config = configFor(id);
    if (config.gcode_flavor === 'klipper') continue;
    const start = render(id, 'machine_start_gcode');
    assert.match(start, /^M190 S60\b/m, `${id} waits for the bed`);
    assert.match(start, /^M109 S(215|210)\b/m, `${id} waits for the nozzle at the first-layer temperature`);
    assert.match(start, /^G28\b/m, `${id} homes`);
    const outside = extrusionsOutside(start, config);
    assert.deepEqual(outside, [], `${id} extrudes outside the printable area`);
  }
});

test('probing with the nozzle happens below the oozing point', () => {
  for (const id of ['bambu-lab-x1-carbon-0.4', 'bambu-lab-p1s-0.4', 'bambu-lab-a1-0.4', 'bambu-lab-a1-mini-0.4', 'prusa-mk4-0.4']) {
    const start = render(id, 'machine_start_gcode');
    const probe = start.search(/^G29(?=\s|$)/m);
    const hot = start.search(/^M109 S(2\d\d)\b/m);
    assert.ok(probe > 0 && hot > probe, `${id}: levelling before heating to printing temperature`);
    assert.match(start.slice(0, probe), /^M109 [RS]1[4-7]0\b/m, id);
  }
});

test('Bambu scripts load AMS slots inside M620/M621 blocks and notify layer changes', () => {
  const start = render('bambu-lab-x1-carbon-0.4', 'machine_start_gcode', ['generic-pla', 'generic-petg']);
  assert.match(start, /^M620 S0A\b[\s\S]*^T0\b[\s\S]*^M621 S0A\b/m);
  assert.match(start, /^G29 A X60 Y70 I80 J80\b/m);
  assert.match(start, /^G29\.1 Z-0\.04\b/m, 'textured plate trim');
  const change = render('bambu-lab-x1-carbon-0.4', 'change_filament_gcode', ['generic-pla', 'generic-petg']);
  assert.match(change, /^M620 S1A\b[\s\S]*^M109 S260\b[\s\S]*^T1\b[\s\S]*^M621 S1A\b/m);
  assert.equal(
    render('bambu-lab-a1-0.4', 'layer_change_gcode'),
    "; layer 13 of 40\nM73 L13 ; layer number on the printer's screen\nM991 S0 P12 ; tell the firmware a new layer has begun\n",
  );
});

test('end scripts turn heaters and motors off; Klipper ones call their macro', () => {
  for (const { id } of catalogue.list({ kind: 'printer' })) {
    const end = render(id, 'machine_end_gcode');
    if (configFor(id).gcode_flavor === 'klipper') {
      assert.match(end, /^(PRINT_END|END_PRINT)$/m, id);
      continue;
    }
    assert.match(end, /^M104 S0\b/m, id);
    assert.match(end, /^M140 S0\b/m, id);
    assert.match(end, /^(M84|M18)\b/m, id);
    assert.match(end, /E-\d/, `${id} retracts`);
  }
});

test('Klipper printers pass bed and nozzle temperatures to their start macro', () => {
  assert.match(render('generic-klipper-0.4', 'machine_start_gcode'), /^PRINT_START BED=60 EXTRUDER=215$/m);
  assert.match(render('voron-2.4-350-0.4', 'machine_start_gcode', ['generic-abs']), /^PRINT_START BED=100 EXTRUDER=255 CHAMBER=0$/m);
  assert.match(render('creality-k1-0.4', 'machine_start_gcode'), /^START_PRINT EXTRUDER_TEMP=215 BED_TEMP=60$/m);
});

/** Extruding moves of a rendered script whose start or end lies outside the printable area. */
function extrusionsOutside(gcode: string, config: PrintConfig): string[] {
  const xs = config.printable_area.map((p) => p[0]);
  const ys = config.printable_area.map((p) => p[1]);
  const inside = (x: number, y: number) => x >= Math.min(...xs) && x <= Math.max(...xs) && y >= Math.min(...ys) && y <= Math.max(...ys);
  let absolute = true;
  let x = Number.NaN;
  let y = Number.NaN;
  const bad: string[] = [];
  for (const raw of gcode.split('\n')) {
    const line = raw.replace(/;.*/, '').trim();
    if (line === 'G90') absolute = true;
    if (line === 'G91') absolute = false;
    if (!/^G[01]\b/.test(line)) continue;
    const word = (letter: string) => {
      const m = new RegExp(`\\b${letter}(-?[\\d.]+)`).exec(line);
      return m ? Number(m[1]) : undefined;
    };
    const [nx, ny, e] = [word('X'), word('Y'), word('E')];
    const from: [number, number] = [x, y];
    if (nx !== undefined) x = absolute ? nx : x + nx;
    if (ny !== undefined) y = absolute ? ny : y + ny;
    const moves = nx !== undefined || ny !== undefined;
    // Purges over a chute or a purge area are stationary; only moving extrusions draw on the plate.
    if (e !== undefined && e > 0 && moves && (!inside(...from) || !inside(x, y))) bad.push(raw);
  }
  return bad;
}
