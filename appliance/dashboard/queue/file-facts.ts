/**
 * What a print-ready file says about itself, read once when it is queued:
 * - the filaments it needs (material and colour per slicer filament): a Bambu project's slice
 *   info for plate 1 (else its project settings), a G-code file's `; filament_type =` and
 *   `; filament_colour =` comments (PrusaSlicer, OrcaSlicer, BambuStudio and our engine write
 *   them, `;`-separated, one per filament);
 * - the planned use per filament (`; filament used [g] =` / `[mm] =`; a project's `used_g` and
 *   `used_m`) and the slicer's time estimate (`; estimated printing time (normal mode) =`, Bambu's
 *   `; total estimated time:`; a project's `prediction`);
 * - the plate's picture: the largest `; thumbnail begin` PNG of G-code, a project's
 *   `Metadata/plate_1.png`.
 * G-code is read line by line and projects as a stream (files run to hundreds of MB); only
 * comment lines and the three small parts are kept.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Unzip, UnzipInflate } from 'fflate';
import { filamentsForPlate, parseProjectSettings, parseSliceInfo } from '../printers/families/bambu-lan/project-filaments.js';
import { normaliseHex, type FilamentRequirement, type PlannedAmount, type PrintFormat } from './job.js';

export interface FileFacts {
  filaments: FilamentRequirement[];
  amounts: PlannedAmount[];
  estimate_s: number | null;
  thumbnail: Buffer | null;
}

const SLICE_INFO = 'Metadata/slice_info.config';
const PROJECT_SETTINGS = 'Metadata/project_settings.config';
const PLATE_PNG = 'Metadata/plate_1.png';

/** Seconds of a slicer duration such as `1d 2h 3m 4s` or `22m 21s`; null when there is none. */
function durationSeconds(text: string): number | null {
  const units: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };
  let seconds = 0;
  let matched = false;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*([dhms])\b/g)) {
    seconds += Number(m[1]) * units[m[2]];
    matched = true;
  }
  return matched ? Math.round(seconds) : null;
}

function numbers(text: string): Array<number | null> {
  return text.split(/[,;]/).map((part) => {
    const n = Number(part.trim());
    return part.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : null;
  });
}

function amountsOf(grams: Array<number | null>, lengths: Array<number | null>): PlannedAmount[] {
  const count = Math.max(grams.length, lengths.length);
  return Array.from({ length: count }, (_, i) => ({ filament: i + 1, grams: grams[i] ?? null, length_mm: lengths[i] ?? null }));
}

/** Reads the comment lines of a G-code file. */
export async function gcodeFacts(file: string): Promise<FileFacts> {
  let types: string[] = [];
  let colours: string[] = [];
  let grams: Array<number | null> = [];
  let lengths: Array<number | null> = [];
  let estimate: number | null = null;
  let thumbnail: { pixels: number; base64: string[] } | null = null;
  let reading: { pixels: number; base64: string[] } | null = null;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.startsWith(';')) continue;
    if (reading) {
      if (/^; thumbnail end/.test(line)) {
        if (!thumbnail || reading.pixels > thumbnail.pixels) thumbnail = reading;
        reading = null;
      } else reading.base64.push(line.slice(1).trim());
      continue;
    }
    const begin = /^; thumbnail begin (\d+)x(\d+)/.exec(line);
    if (begin) {
      reading = { pixels: Number(begin[1]) * Number(begin[2]), base64: [] };
      continue;
    }
    const setting = /^; (filament_type|filament_colour|filament used \[g\]|filament used \[mm\]) = (.*)$/.exec(line);
    if (setting) {
      const [, key, value] = setting;
      if (key === 'filament_type') types = value.split(';').map((t) => t.trim().toUpperCase());
      else if (key === 'filament_colour') colours = value.split(';').map((c) => c.trim());
      else if (key === 'filament used [g]') grams = numbers(value);
      else lengths = numbers(value);
      continue;
    }
    const time = /^; estimated printing time \(normal mode\) = (.+)$/.exec(line) ?? /total estimated time: ([^;]+)/.exec(line);
    if (time && estimate === null) estimate = durationSeconds(time[1]);
  }
  const filaments = types
    .map((material, i) => ({ filament: i + 1, material, color_hex: normaliseHex(colours[i]) }))
    .filter((f) => /^[A-Z0-9][A-Z0-9+-]{0,31}$/.test(f.material));
  // The printer's own configuration lists every configured filament: keep those the file uses
  // when it says (a grams figure of 0 is a filament the plate does not use).
  const used = filaments.filter((f) => grams[f.filament - 1] !== 0);
  const png = thumbnail ? Buffer.from(thumbnail.base64.join(''), 'base64') : null;
  return { filaments: used, amounts: amountsOf(grams, lengths), estimate_s: estimate, thumbnail: isPng(png) ? png : null };
}

function isPng(bytes: Buffer | null): bytes is Buffer {
  return bytes !== null && bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}

/* The parts read are a few kB to a few MB; anything far larger is not what is looked for. */
const MAX_PART_BYTES = 16 * 1024 * 1024;

/**
 * The wanted parts of a ZIP package, read as the file streams past (a project may be hundreds of
 * MB; only the small parts are kept). A part that does not inflate, or is too large, is left out;
 * a file that is not a ZIP package rejects.
 */
export async function readParts(file: string, wanted: ReadonlySet<string>): Promise<Map<string, Buffer>> {
  const parts = new Map<string, Buffer>();
  const unzip = new Unzip((entry) => {
    if (!wanted.has(entry.name)) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    entry.ondata = (err, data, final) => {
      if (err) return;
      size += data.length;
      if (size > MAX_PART_BYTES) {
        entry.terminate();
        return;
      }
      chunks.push(data);
      if (final) parts.set(entry.name, Buffer.concat(chunks));
    };
    try {
      entry.start();
    } catch {
      // A compression method fflate cannot inflate: the part stays unread.
    }
  });
  unzip.register(UnzipInflate);
  for await (const chunk of createReadStream(file)) unzip.push(chunk as Buffer);
  unzip.push(new Uint8Array(0), true);
  return parts;
}

/** Reads a Bambu project's slice info, project settings and plate picture. */
export async function projectFacts(file: string): Promise<FileFacts> {
  const parts = await readParts(file, new Set([SLICE_INFO, PROJECT_SETTINGS, PLATE_PNG]));
  const text = (name: string): string | null => parts.get(name)?.toString('utf8') ?? null;
  const sliceInfo = text(SLICE_INFO);
  const settings = text(PROJECT_SETTINGS);
  const project =
    sliceInfo === null && settings === null
      ? null
      : {
          plates: sliceInfo === null ? new Map() : parseSliceInfo(sliceInfo),
          configured: settings === null ? [] : parseProjectSettings(settings),
        };
  const filaments = (filamentsForPlate(project, 1) ?? []).map((f) => ({ filament: f.id, material: f.type, color_hex: f.color }));
  const png = parts.get(PLATE_PNG) ?? null;
  return { filaments, ...plateUse(sliceInfo), thumbnail: isPng(png) ? png : null };
}

/** Plate 1's `prediction` and its filaments' `used_g` / `used_m` from slice_info.config. */
function plateUse(xml: string | null): Pick<FileFacts, 'amounts' | 'estimate_s'> {
  const plate = xml === null ? undefined : [...xml.matchAll(/<plate>([\s\S]*?)<\/plate>/g)].find((m) => /key="index"\s+value="1"/.test(m[1]));
  if (!plate) return { amounts: [], estimate_s: null };
  const prediction = /key="prediction"\s+value="(\d+(?:\.\d+)?)"/.exec(plate[1]);
  const amounts: PlannedAmount[] = [];
  for (const tag of plate[1].matchAll(/<filament\s[^>]*>/g)) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag[0])?.[1];
    const id = Number(attr('id'));
    if (!Number.isInteger(id) || id < 1) continue;
    const grams = Number(attr('used_g'));
    const metres = Number(attr('used_m'));
    amounts.push({
      filament: id,
      grams: Number.isFinite(grams) && attr('used_g') !== undefined ? grams : null,
      length_mm: Number.isFinite(metres) && attr('used_m') !== undefined ? Math.round(metres * 1000 * 100) / 100 : null,
    });
  }
  return { amounts, estimate_s: prediction ? Math.round(Number(prediction[1])) : null };
}

export function fileFacts(file: string, format: PrintFormat): Promise<FileFacts> {
  return format === 'gcode' ? gcodeFacts(file) : projectFacts(file);
}
