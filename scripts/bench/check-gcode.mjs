// Runs the shared folder's tools/gcode_check.py on a slicer's output: does the G-code physically
// reproduce the mesh? The start G-code of a real profile draws a prime line beside the part at
// its own height, which the checker would count as a layer printed outside the model; those
// extrusions are dropped from the copy it reads. Heating, homing and the part stay untouched.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { GCODE_CHECKER } from './shared-dir.mjs';

/** First-layer markers of PrusaSlicer (and ours), CuraEngine and OrcaSlicer. */
const FIRST_LAYER = /^(?:;LAYER_CHANGE|;LAYER:0|; CHANGE_LAYER)\s*$/m;

/**
 * The G-code with the XY extrusions before the first layer taken out. In absolute E mode the
 * move becomes `G92 E<value>`, so the extruder position the checker tracks stays what it was.
 */
export function withoutStartExtrusions(gcode) {
  const marker = FIRST_LAYER.exec(gcode);
  if (!marker) return gcode;
  let absoluteE = true;
  const head = gcode
    .slice(0, marker.index)
    .split('\n')
    .map((line) => {
      const code = line.split(';', 1)[0].trim().toUpperCase();
      if (/^M82\b/.test(code)) absoluteE = true;
      if (/^M83\b/.test(code)) absoluteE = false;
      const extrusion = /^G[0-3]\b.*\bE([-+]?\d*\.?\d+)/.exec(code);
      if (!extrusion || !/\b[XY][-+]?\d*\.?\d/.test(code)) return line;
      return absoluteE ? `G92 E${extrusion[1]} ; bench: start G-code extrusion dropped` : `; bench: start G-code extrusion dropped: ${line}`;
    });
  return head.join('\n') + gcode.slice(marker.index);
}

/** `{ pass, failed: [check names], summary }` of the checker for one output. */
export function checkGcode(model, gcodePath, { bed, filamentDiameter }) {
  const copy = `${gcodePath}.check.gcode`;
  writeFileSync(copy, withoutStartExtrusions(readFileSync(gcodePath, 'utf8')));
  try {
    const r = spawnSync(
      '/usr/bin/python3',
      [GCODE_CHECKER, model, copy, `--bed=${bed.minX},${bed.minY},${bed.maxX},${bed.maxY}`, `--filament=${filamentDiameter}`],
      { encoding: 'utf8' },
    );
    let report;
    try {
      report = JSON.parse(r.stdout);
    } catch {
      return { pass: false, failed: [`checker exit ${r.status}`] };
    }
    const failed = Object.entries(report.checks ?? {})
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    return { pass: report.pass === true, failed: report.error ? [report.error] : failed, summary: report.summary };
  } finally {
    rmSync(copy, { force: true });
  }
}
