#!/usr/bin/env node
// Speed of the engine's hot parts, measured here rather than in timed unit tests: the estimator's
// G-code throughput (target ≥ 1 M lines/s of CPU time), infill generation per layer (targets:
// a 40 mm square at 15 % grid < 1 ms, a 200 mm solid layer < 20 ms) and the shaded mesh render
// (a 25k-triangle mesh at 300×300 < 100 ms). Run after the build: `node scripts/bench-engine-parts.mjs`.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, process.env.PRINTYARD_DIST ?? 'dist');
const load = (p) => import(join(dist, 'appliance/slicer/engine', p));
const { GcodeEstimator } = await load('estimate/estimator.js');
const { DEFAULT_LIMITS } = await load('estimate/limits.js');
const { fill } = await load('regions/infill/index.js');
const { renderMeshPng } = await load('preview/mesh-render.js');

function report(name, value, unit, target, ok) {
  console.log(
    `${name.padEnd(44)} ${value.toFixed(value < 10 ? 3 : 0).padStart(10)} ${unit.padEnd(10)} target ${target.padEnd(10)} ${ok ? 'PASS' : 'FAIL'}`,
  );
}

/** PrusaSlicer-like output: layers of perimeters and zig-zag infill with feature comments and retracts. */
function syntheticGcode(lines) {
  const out = ['M201 X1000 Y1000 Z200 E5000', 'M204 P1250 R1250 T1500', 'G21', 'G90', 'M83'];
  let layer = 0;
  while (out.length < lines) {
    layer++;
    const z = (0.2 * layer).toFixed(1);
    out.push(';LAYER_CHANGE', `;Z:${z}`, 'G1 E-.8 F2100', `G1 Z${z} F7800`, 'G1 X80.512 Y80.137', 'G1 E.8 F2100', ';TYPE:Perimeter', 'G1 F1800');
    for (let i = 0; i < 360 && out.length < lines; i++) {
      const a = (i * Math.PI) / 180;
      out.push(`G1 X${(110 + 30 * Math.cos(a)).toFixed(3)} Y${(110 + 30 * Math.sin(a)).toFixed(3)} E.01832`);
    }
    out.push(';TYPE:Internal infill', 'G1 F4800');
    for (let i = 0; i < 120 && out.length < lines; i++) {
      const x = i % 2 === 0 ? '85.125' : '134.875';
      out.push(`G1 X${x} Y${(85 + i * 0.42).toFixed(3)} E1.65713`, `G1 X${x} Y${(85 + i * 0.42 + 0.42).toFixed(3)} E.01397`);
    }
  }
  return out.slice(0, lines).join('\n');
}

function cpuSeconds(fn) {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

function best(runs, fn) {
  let b = Infinity;
  for (let i = 0; i < runs; i++) b = Math.min(b, fn());
  return b;
}

const gcode = syntheticGcode(1_000_000);
const estimatorS = best(5, () =>
  cpuSeconds(() => {
    const e = new GcodeEstimator(DEFAULT_LIMITS);
    for (let i = 0; i < gcode.length; i += 1 << 20) e.feed(gcode.slice(i, i + (1 << 20)));
    e.finish();
  }),
);
report('estimator throughput', 1 / estimatorS, 'M lines/s', '>= 1', 1 / estimatorS >= 1);

const rect = (x0, y0, x1, y1) => Float64Array.of(x0, y0, x1, y0, x1, y1, x0, y1);
const request = (area, pattern, density) => ({
  area,
  pattern,
  density,
  spacing: 0.4,
  angle: 45,
  layerIndex: 0,
  z: 0.2,
  role: 'sparse-infill',
  width: 0.45,
  height: 0.2,
  mm3PerMm: 0.08,
});
const perLayer = (req, runs) =>
  best(3, () => {
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) fill({ ...req, layerIndex: i });
    return (performance.now() - t0) / runs;
  });
const sparse = perLayer(request([{ contour: rect(0, 0, 40, 40), holes: [] }], 'grid', 0.15), 200);
report('infill: 40 mm square, 15 % grid', sparse, 'ms/layer', '< 1', sparse < 1);
const solid = perLayer(request([{ contour: rect(0, 0, 200, 200), holes: [] }], 'monotonic', 1), 20);
report('infill: 200 mm solid layer, monotonic', solid, 'ms/layer', '< 20', solid < 20);

const { uvSphere } = await import(join(dist, 'test/fixtures/render-meshes.js'));
const sphere = uvSphere([0, 0, 20], 20, 128, 100);
renderMeshPng([sphere], { width: 300, height: 300, view: 'iso' });
const render = best(5, () => {
  const t0 = performance.now();
  renderMeshPng([sphere], { width: 300, height: 300, view: 'iso' });
  return performance.now() - t0;
});
report(`mesh render: ${sphere.indices.length / 3} triangles at 300x300`, render, 'ms', '< 100', render < 100);
