/**
 * One slice by a desktop slicer's command line, on a resolved Printyard config: the config
 * translated into the slicer's own settings (appliance/slicer/peers/), our start and end G-code
 * rendered for this model (the slicers do not speak OrcaSlicer's placeholders), the CLI run, and
 * the statistics read back from the G-code it wrote (and, for CuraEngine, from its log).
 */
import { access, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CURA_PRINTER_DEFINITION, type DetectedSlicer } from './detect.js';
import type { CliRunner } from './run-cli.js';
import {
  type BBox3,
  configFacts,
  curaCommandArgs,
  curaReport,
  curaSettings,
  first,
  formatPrusaIni,
  type ModelFormat,
  type PeerReport,
  type PrintConfig,
  readGcodeFile,
  peerGcode,
  peerJob,
  prusaSettings,
} from '../../../slicer/index.js';

export interface DesktopJob {
  slicer: DetectedSlicer;
  config: PrintConfig;
  /** The model as uploaded, its format told by content, and its bounding box. */
  modelPath: string;
  modelFormat: ModelFormat;
  modelBase: string;
  bounds: BBox3;
  /** A folder of this job's own for the settings file, the model link and the slicer's data. */
  workDir: string;
  outputPath: string;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface DesktopJobReport {
  layers: number | null;
  estimatedTimeS: number | null;
  filamentMm: number[];
  filamentG: number[];
  /** Settings of this config the slicer cannot reproduce. */
  caveats: string[];
}

/**
 * The slicers pick the format by the file name's extension, and an upload has none: the job
 * gets a link named after the model.
 */
async function linkModel(job: DesktopJob): Promise<string> {
  const link = path.join(job.workDir, `${job.modelBase}.${job.modelFormat}`);
  await symlink(path.resolve(job.modelPath), link);
  return link;
}

/** Grams from the length when the slicer reports no mass (density 0 means unknown). */
function report(peer: PeerReport, config: PrintConfig, caveats: string[]): DesktopJobReport {
  const { filamentArea } = configFacts(config);
  const density = first(config.filament_density);
  const grams = peer.filamentG ?? (peer.filamentMm !== undefined && density > 0 ? ((peer.filamentMm * filamentArea) / 1000) * density : undefined);
  return {
    layers: peer.layers ?? null,
    estimatedTimeS: peer.timeS ?? null,
    filamentMm: peer.filamentMm === undefined ? [] : [peer.filamentMm],
    filamentG: grams === undefined ? [] : [grams],
    caveats,
  };
}

function renderedGcode(job: DesktopJob) {
  return peerGcode(job.config, peerJob(job.config, job.bounds, job.modelBase));
}

/**
 * PrusaSlicer's command line arranges the objects it is given around the bed's centre unless told
 * `--dont-arrange`. The engine keeps a 3MF's own placement when it lies on the printable area (a
 * plate laid out in a slicer, a dashboard scene) and centres it otherwise; the bridge does the same.
 */
function keepsPlacement(job: DesktopJob): boolean {
  if (job.modelFormat !== '3mf') return false;
  const xs = job.config.printable_area.map((p) => p[0]);
  const ys = job.config.printable_area.map((p) => p[1]);
  const { min, max } = job.bounds;
  return min[0] >= Math.min(...xs) && max[0] <= Math.max(...xs) && min[1] >= Math.min(...ys) && max[1] <= Math.max(...ys);
}

export async function runPrusaSlicer(runner: CliRunner, job: DesktopJob): Promise<DesktopJobReport> {
  const { settings, caveats } = prusaSettings(job.config, renderedGcode(job));
  const ini = path.join(job.workDir, 'printyard.ini');
  await writeFile(ini, formatPrusaIni(settings));
  const model = await linkModel(job);
  await runner.run({
    command: job.slicer.path,
    // Its own data folder keeps it away from the service user's home (which may be read-only).
    args: [
      '--export-gcode',
      '--load',
      ini,
      '--output',
      job.outputPath,
      '--datadir',
      path.join(job.workDir, 'datadir'),
      '--loglevel',
      '1',
      ...(keepsPlacement(job) ? ['--dont-arrange'] : []),
      model,
    ],
    cwd: job.workDir,
    timeoutMs: job.timeoutMs,
    signal: job.signal,
    label: job.slicer.name,
  });
  return report((await readGcodeFile(job.outputPath)).summary(), job.config, caveats);
}

/** The first fdmprinter.def.json among the installation's definition folders (the detector found one). */
async function curaDefinition(slicer: DetectedSlicer): Promise<string> {
  for (const dir of slicer.profile_dirs) {
    const file = path.join(dir, CURA_PRINTER_DEFINITION);
    if (
      await access(file).then(
        () => true,
        () => false,
      )
    )
      return file;
  }
  throw new Error(`${CURA_PRINTER_DEFINITION} is gone from ${slicer.profile_dirs.join(', ')}`);
}

/** CuraEngine reads STL only; the caller does not hand it a 3MF. */
export async function runCuraEngine(runner: CliRunner, job: DesktopJob): Promise<DesktopJobReport> {
  const definition = await curaDefinition(job.slicer);
  const { settings, caveats } = curaSettings(job.config, renderedGcode(job));
  const model = await linkModel(job);
  const { stderr } = await runner.run({
    command: job.slicer.path,
    args: curaCommandArgs({ definition, settings, model, output: job.outputPath }),
    cwd: job.workDir,
    timeoutMs: job.timeoutMs,
    signal: job.signal,
    label: job.slicer.name,
  });
  const facts = configFacts(job.config);
  const peer = curaReport(await readGcodeFile(job.outputPath), stderr, {
    filamentDiameter: facts.filamentDiameter,
    filamentDensity: first(job.config.filament_density),
  });
  return report(peer, job.config, caveats);
}
