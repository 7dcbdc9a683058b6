// The three slicers of the benches as functions of (job, output): our command line, PrusaSlicer 2.5
// and CuraEngine 4.13, each run measured (run-measured.mjs) with its estimates parsed, and the
// per-model files the peers read (settings INI, Cura settings, custom G-code for this model).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oursCliArgs } from './bench-profile.mjs';
import { stlBounds } from './model-bounds.mjs';
import { runMeasured } from './run-measured.mjs';

export const PRUSA = '/usr/bin/prusa-slicer';
export const CURA = '/usr/bin/CuraEngine';

/** The job of one STL as every slicer gets it: the peers' settings with the custom G-code rendered for this model. */
export function peerJob(path, base, workDir, config, peers) {
  const gcode = peers.peerGcode(config, peers.peerJob(config, stlBounds(readFileSync(path)), base));
  const settings = peers.peerConfigs(config, gcode);
  const iniPath = join(workDir, `${base}.prusaslicer.ini`);
  writeFileSync(iniPath, settings.prusaIni);
  return { path, iniPath, curaSettings: settings.curaSettings, caveats: settings.caveats };
}

function failure(run, output) {
  const lines = `${run.stderr}\n${run.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.includes('[trace]') && !l.startsWith('-s ') && !/^Command exited/.test(l));
  const reason = run.exitCode !== 0 ? `exit ${run.exitCode}` : `no G-code at ${output}`;
  return `${reason}${lines.length > 0 ? ` (${lines[lines.length - 1].slice(0, 160)})` : ''}`;
}

/**
 * `{ ours, prusa, cura }`: each (job, output) → `{ ok, wallS, cpuS, peakRssMb, ...estimates }` or `{ ok: false, error }`.
 * `oursWorkers`, when given, is passed to our CLI as `--workers N` (an A/B of the engine's thread choice).
 */
export function slicers({ paths, oursBuilt, definition, facts, config, workDir, peers, oursWorkers }) {
  const measured = (command, args, output, parse) => {
    rmSync(output, { force: true });
    const run = runMeasured(command, args, { workDir });
    if (run.exitCode !== 0 || !existsSync(output)) return { ok: false, error: failure(run, output) };
    return { ok: true, wallS: run.wallS, cpuS: run.cpuS, peakRssMb: run.peakRssMb, ...parse(readFileSync(output, 'utf8'), run) };
  };
  const { curaCommandArgs, first, parseCuraOutput, parseGcodeSummary } = peers;
  const filament = { filamentDiameter: facts.filamentDiameter, filamentDensity: first(config.filament_density) };
  return {
    ours: oursBuilt
      ? // Run as an installed command runs: through its first line, with the runtime settings it carries.
        (job, output) => {
          const args = oursCliArgs(paths.cli, job.path, output).slice(1);
          if (oursWorkers !== undefined) args.push('--workers', String(oursWorkers));
          return measured(paths.cli, args, output, (gcode) => parseGcodeSummary(gcode));
        }
      : undefined,
    prusa: (job, output) =>
      measured(PRUSA, ['--export-gcode', '--load', job.iniPath, '--output', output, job.path], output, (gcode) => parseGcodeSummary(gcode)),
    cura: (job, output) =>
      measured(CURA, curaCommandArgs({ definition, settings: job.curaSettings, model: job.path, output }), output, (gcode, run) =>
        parseCuraOutput(gcode, run.stderr, filament),
      ),
  };
}
