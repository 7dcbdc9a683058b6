import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateGcodeFile } from '../../../../appliance/slicer/engine/estimate/estimate-file.js';
import { GcodeEstimator } from '../../../../appliance/slicer/engine/estimate/estimator.js';
import { machineFromSettings, parseSettingLines } from '../../../../appliance/slicer/engine/estimate/embedded-config.js';
import { copyLimits, DEFAULT_LIMITS } from '../../../../appliance/slicer/engine/estimate/limits.js';
import { isAppError } from '../../../../appliance/common/errors.js';

function layer(z: number): string {
  const lines = [';LAYER_CHANGE', `G1 Z${z.toFixed(2)} F600`];
  for (let i = 0; i < 200; i++) lines.push(`G1 X${(10 + (i % 2) * 40).toFixed(3)} Y${(10 + i * 0.45).toFixed(3)} E${(0.05 * i).toFixed(5)} F3000`);
  lines.push('G92 E0');
  return lines.join('\n');
}

const BODY = ['G21', 'G90', 'M82', 'G28', ...Array.from({ length: 30 }, (_, i) => layer(0.2 * (i + 1))), 'M84', ''].join('\n');
const FOOTER =
  '; prusaslicer_config = begin\n; gcode_flavor = marlin2\n' +
  '; machine_max_feedrate_x = 40\n; machine_max_feedrate_y = 40\n; prusaslicer_config = end\n';

function withFile(content: string, run: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'printyard-estimate-file-'));
  const path = join(dir, 'part.gcode');
  writeFileSync(path, content);
  return run(path).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('a file streamed from disk estimates like the same text fed at once, with its embedded machine', async () => {
  await withFile(BODY + FOOTER, async (path) => {
    const fromFile = await estimateGcodeFile(path);
    const machine = machineFromSettings(parseSettingLines(FOOTER));
    const estimator = new GcodeEstimator(machine.limits, { firmwareRetraction: machine.firmwareRetraction });
    estimator.feed(BODY + FOOTER);
    assert.deepEqual(fromFile, estimator.finish());
    assert.equal(fromFile.layerStartS.length, 30);
    // The embedded 40 mm/s limits slow the 3000 mm/min extrusions down.
    const unlimited = await estimateGcodeFile(path, { limits: copyLimits(DEFAULT_LIMITS) });
    assert.ok(fromFile.totalS > unlimited.totalS * 1.2, `${fromFile.totalS} vs ${unlimited.totalS}`);
  });
});

test('a missing file is a 404 AppError; a cancelled estimate stops', async () => {
  await assert.rejects(estimateGcodeFile(join(tmpdir(), 'printyard-no-such-file.gcode')), (err) => isAppError(err) && err.status === 404);
  await withFile(BODY, async (path) => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(estimateGcodeFile(path, { signal: controller.signal }), (err) => isAppError(err) && err.code === 'ERR_CANCELLED');
  });
});
