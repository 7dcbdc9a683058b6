/**
 * What a slicer reports about a sliced part: layer count, estimated print time and filament (mm
 * and g). PrusaSlicer writes a footer; CuraEngine run from the command line writes placeholder
 * header values into the G-code (";TIME:6666") and prints the real ones on stderr with -v; our
 * engine writes PrusaSlicer's footer and Cura's header keys.
 *
 * The G-code is read line by line (`GcodeReportReader`), so a file of hundreds of megabytes is
 * never held in memory: the bridge feeds it a stream, the benchmark a whole string.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface PeerReport {
  layers: number | undefined;
  timeS: number | undefined;
  filamentMm: number | undefined;
  filamentG: number | undefined;
}

/** Seconds of a PrusaSlicer duration such as "1d 2h 3m 4s" or "22m 21s". */
export function parseDuration(text: string): number | undefined {
  const units: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };
  let seconds = 0;
  let matched = false;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*([dhms])/g)) {
    seconds += Number(m[1]) * units[m[2]];
    matched = true;
  }
  return matched ? seconds : undefined;
}

const PATTERNS = {
  time: /^; estimated printing time \(normal mode\) = (.+)$/,
  layerChange: /^;LAYER_CHANGE\s*$/,
  curaLayer: /^;LAYER:\d+\s*$/,
  layerCount: /^;LAYER_COUNT:\s*(\d+)/,
  totalLayers: /^; total layers count = (\d+)/,
  filamentM: /^;Filament used:\s*([\d.]+)m\s*$/,
  filamentMm: /^; filament used \[mm\] = ([\d.]+)/,
  filamentG: /^; (?:total )?filament used \[g\] = ([\d.]+)/,
  curaTime: /^;TIME:\s*([\d.]+)/,
  curaElapsed: /^;TIME_ELAPSED:([\d.]+)/,
} as const;

/** Collects the report comments of a G-code file, one line at a time. */
export class GcodeReportReader {
  private timeText: string | undefined;
  private layerChanges = 0;
  private curaLayers = 0;
  private readonly last: Partial<
    Record<'layerCount' | 'totalLayers' | 'filamentM' | 'filamentMm' | 'filamentG' | 'curaTime' | 'curaElapsed', number>
  > = {};

  push(line: string): void {
    if (!line.startsWith(';')) return;
    if (PATTERNS.layerChange.test(line)) {
      this.layerChanges++;
      return;
    }
    if (PATTERNS.curaLayer.test(line)) {
      this.curaLayers++;
      return;
    }
    if (this.timeText === undefined) {
      const time = PATTERNS.time.exec(line);
      if (time) {
        this.timeText = time[1];
        return;
      }
    }
    for (const key of ['layerCount', 'totalLayers', 'filamentM', 'filamentMm', 'filamentG', 'curaTime', 'curaElapsed'] as const) {
      const m = PATTERNS[key].exec(line);
      if (m) {
        this.last[key] = Number(m[1]);
        return;
      }
    }
  }

  /**
   * The report of PrusaSlicer and of our engine: the comments PrusaSlicer writes in its footer and
   * OrcaSlicer/Cura in their headers, whichever exist. PrusaSlicer writes no layer count, so its
   * layers are counted from ;LAYER_CHANGE.
   */
  summary(): PeerReport {
    const { last } = this;
    const filamentM = last.filamentM;
    return {
      layers: last.layerCount ?? last.totalLayers ?? (this.layerChanges > 0 ? this.layerChanges : undefined),
      timeS: this.timeText === undefined ? last.curaTime : parseDuration(this.timeText),
      filamentMm: last.filamentMm ?? (filamentM === undefined ? undefined : filamentM * 1000),
      filamentG: last.filamentG,
    };
  }

  /** Layers as CuraEngine wrote them (its ;LAYER_COUNT also counts empty layers it never writes). */
  curaLayerCount(): number | undefined {
    return this.curaLayers || this.last.layerCount;
  }

  curaElapsedS(): number | undefined {
    return this.last.curaElapsed;
  }
}

function readText(text: string): GcodeReportReader {
  const reader = new GcodeReportReader();
  for (const line of text.split('\n')) reader.push(line);
  return reader;
}

/** Reads a G-code file as a stream. */
export async function readGcodeFile(file: string): Promise<GcodeReportReader> {
  const reader = new GcodeReportReader();
  const lines = createInterface({ input: createReadStream(file, { encoding: 'latin1' }), crlfDelay: Infinity });
  for await (const line of lines) reader.push(line);
  return reader;
}

export function parseGcodeSummary(gcode: string): PeerReport {
  return readText(gcode).summary();
}

export interface CuraFilament {
  filamentDiameter: number;
  filamentDensity: number;
}

/**
 * CuraEngine's report: layers counted from the G-code, time and extruded volume from its -v
 * stderr (the G-code header holds placeholders when run from the command line). Cura has no
 * filament density, so grams and length come from the volume with our filament's density and
 * diameter.
 */
export function curaReport(gcode: GcodeReportReader, log: string, { filamentDiameter, filamentDensity }: CuraFilament): PeerReport {
  let volumeMm3: number | undefined;
  for (const m of log.matchAll(/^Filament \(mm\^3\):\s*([\d.]+)/gm)) volumeMm3 = Number(m[1]);
  let printTimeS: number | undefined;
  for (const m of log.matchAll(/^Print time \(s\):\s*([\d.]+)/gm)) printTimeS = Number(m[1]);
  const area = Math.PI * (filamentDiameter / 2) ** 2;
  return {
    layers: gcode.curaLayerCount(),
    timeS: printTimeS ?? gcode.curaElapsedS(),
    filamentMm: volumeMm3 === undefined ? undefined : volumeMm3 / area,
    filamentG: volumeMm3 === undefined ? undefined : (volumeMm3 / 1000) * filamentDensity,
  };
}

export function parseCuraOutput(gcode: string, log: string, filament: CuraFilament): PeerReport {
  return curaReport(readText(gcode), log, filament);
}
