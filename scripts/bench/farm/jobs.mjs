// The farm bench's filaments and jobs: which spools each virtual printer holds, and 500 print-ready
// files whose filament requirements are spread over those loads, so that each job fits part of
// the farm (and the dispatcher has to look for it).
//   - Bambu printer i: AMS trays 0–3 hold the palette entries i, i+1, i+2, i+3 (mod 8), so each
//     entry sits on half of the Bambu printers, at a tray that depends on the printer.
//   - Marlin printer j: one spool of entry j mod 4 on tool T0, loaded through the inventory.
//   - Job n: a Marlin G-code file (in the Marlin printers' share: every 11th of 50 + 5) or a Bambu project
//     (.gcode.3mf) asking for palette entry n mod 8 — and every 5th Bambu project also for the
//     next entry as its second filament (the AMS mapping has two to place).
// The prints are short (a few seconds of moves, no heating waits) so that plates come free again
// within the run. The filaments are read from the file (the queue's `filaments_from: file`).
import { strToU8, zipSync } from 'fflate';

export const PALETTE = [
  { material: 'PLA', color: '#FFFFFF' },
  { material: 'PLA', color: '#000000' },
  { material: 'PLA', color: '#E02020' },
  { material: 'PLA', color: '#2040C0' },
  { material: 'PETG', color: '#000000' },
  { material: 'PETG', color: '#FF8000' },
  { material: 'ABS', color: '#808080' },
  { material: 'TPU', color: '#FFE000' },
];

/** Every Marlin printer's spool: palette entries 0–3. */
const MARLIN_ENTRIES = 4;
const TWO_FILAMENTS_EVERY = 5;

/** The AMS trays of Bambu printer `i`, as the simulator's AmsOptions take them. */
export function bambuTrays(i) {
  return [0, 1, 2, 3].map((t) => {
    const { material, color } = PALETTE[(i + t) % PALETTE.length];
    return { type: material, color: `${color.slice(1)}FF`, remain: 80 };
  });
}

/** The spool on T0 of Marlin printer `j`. */
export function marlinSpool(j) {
  return PALETTE[j % MARLIN_ENTRIES];
}

/** Moves of `seconds` printer time at 30 mm/s, over `layers` layers. */
function moves(seconds, layers) {
  const lines = [];
  const perLayer = (seconds * 30) / layers;
  for (let layer = 1; layer <= layers; layer++) {
    lines.push(`M73 L${layer}`, `G1 Z${(layer * 0.2).toFixed(1)} F600`, `G1 X${(10 + perLayer).toFixed(1)} Y10 E1 F1800`, 'G1 X10 Y10 F6000');
  }
  return lines;
}

/** Plate 1 of a Bambu project: the layer header the simulator reads, then the moves. */
function bambuPlate(seconds) {
  const layers = 3;
  return [
    '; HEADER_BLOCK_START',
    `; total layer number: ${layers}`,
    '; HEADER_BLOCK_END',
    'G90',
    'M83',
    'G1 X10 Y10 F6000',
    ...moves(seconds, layers),
    'M73 P100 R0',
    '',
  ].join('\n');
}

function bambuProject(filaments, seconds) {
  const tags = filaments.map((f, i) => `<filament id="${i + 1}" type="${f.material}" color="${f.color}" used_m="0.50" used_g="1.50"/>`).join('');
  return zipSync({
    'Metadata/plate_1.gcode': strToU8(bambuPlate(seconds)),
    'Metadata/slice_info.config': strToU8(
      `<config><plate><metadata key="index" value="1"/><metadata key="prediction" value="${seconds}"/>${tags}</plate></config>`,
    ),
  });
}

/** A plain G-code file whose first line names the job (the simulator reports it as the start). */
function marlinGcode(name, filament, seconds) {
  return [
    `M117 bench-job ${name}`,
    'G90',
    'M83',
    'G1 X10 Y10 F6000',
    ...moves(seconds, 2),
    '; filament used [mm] = 495.00',
    '; filament used [g] = 1.50',
    `; estimated printing time (normal mode) = ${seconds}s`,
    `; filament_colour = ${filament.color}`,
    `; filament_type = ${filament.material}`,
    '',
  ].join('\n');
}

/**
 * Job `n` of the run: `{ name, fileName, content, kind }`. `marlinCount` and `bambuCount` say which
 * kinds of printer exist (a job no printer could take would only wait).
 */
export function benchJob(n, { bambuCount, marlinCount, printSeconds }) {
  const name = `bench-${String(n).padStart(4, '0')}`;
  const marlinEvery = marlinCount > 0 ? Math.round((bambuCount + marlinCount) / marlinCount) : 0;
  if (marlinCount > 0 && n % marlinEvery === marlinEvery - 1) {
    const filament = marlinSpool(n % Math.min(marlinCount, MARLIN_ENTRIES));
    return { name, kind: 'marlin', fileName: `${name}.gcode`, content: marlinGcode(name, filament, printSeconds) };
  }
  // With fewer than 5 Bambu printers not every palette entry is loaded: ask only for those that are.
  const entries = Math.min(PALETTE.length, bambuCount + 3);
  const first = n % entries;
  const second = first === entries - 1 ? first - 1 : first + 1;
  const filaments = n % TWO_FILAMENTS_EVERY === 0 ? [PALETTE[first], PALETTE[second]] : [PALETTE[first]];
  return { name, kind: 'bambu', fileName: `${name}.gcode.3mf`, content: bambuProject(filaments, printSeconds) };
}

/** POST /api/queue with the job's file; resolves with `{ status, json, text }`. */
export async function postJob(base, headers, job) {
  const form = new FormData();
  const bytes = typeof job.content === 'string' ? Buffer.from(job.content) : Buffer.from(job.content);
  form.set('file', new Blob([bytes]), job.fileName);
  form.set('name', job.name);
  const res = await fetch(`${base}/api/queue`, { method: 'POST', headers, body: form });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}
