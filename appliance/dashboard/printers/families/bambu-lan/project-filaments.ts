/**
 * Which filaments a Bambu project (`.gcode.3mf`) asks for, read while the file streams past on
 * its way to the printer, without holding the file: the ZIP is unpacked as a stream and only two
 * small parts are kept.
 * - `Metadata/slice_info.config` (XML) lists, per plate, the filaments that plate really uses:
 *   `<plate><metadata key="index" value="1"/>…<filament id="1" type="PLA" color="#FFFFFF" …/>`.
 *   Filament ids count from 1 and are the slicer's filament slots (`ams_mapping` index + 1).
 * - `Metadata/project_settings.config` (JSON) has `filament_type` and `filament_colour` for every
 *   configured filament, used or not: the fallback when a file has no slice info for the plate.
 */
import { Unzip, UnzipInflate } from 'fflate';

export interface ProjectFilament {
  /** Slicer filament slot, from 1. */
  id: number;
  /** `PLA`, `PETG-CF`…, upper case. */
  type: string;
  /** `#RRGGBB`, upper case; null when the file gives none. */
  color: string | null;
}

export interface ProjectFilaments {
  /** Plate number → the filaments it uses (slice_info.config). */
  plates: Map<number, ProjectFilament[]>;
  /** Every configured filament (project_settings.config). */
  configured: ProjectFilament[];
}

const SLICE_INFO = 'Metadata/slice_info.config';
const PROJECT_SETTINGS = 'Metadata/project_settings.config';
/* Both parts are a few kB to a few hundred kB; anything far larger is not what we look for. */
const MAX_PART_BYTES = 8 * 1024 * 1024;

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of tag.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g)) out[match[1]] = match[2];
  return out;
}

function normaliseColor(value: string | undefined): string | null {
  const hex = (value ?? '').trim().replace(/^#/, '').toUpperCase();
  return /^[0-9A-F]{6}([0-9A-F]{2})?$/.test(hex) ? `#${hex.slice(0, 6)}` : null;
}

function filament(id: number, type: string | undefined, color: string | undefined): ProjectFilament | null {
  const material = (type ?? '').trim().toUpperCase();
  return Number.isInteger(id) && id >= 1 && material !== '' ? { id, type: material, color: normaliseColor(color) } : null;
}

export function parseSliceInfo(xml: string): Map<number, ProjectFilament[]> {
  const plates = new Map<number, ProjectFilament[]>();
  for (const block of xml.matchAll(/<plate>([\s\S]*?)<\/plate>/g)) {
    const index = /<metadata\s+key="index"\s+value="(\d+)"/.exec(block[1]);
    if (!index) continue;
    const used: ProjectFilament[] = [];
    for (const tag of block[1].matchAll(/<filament\s[^>]*>/g)) {
      const a = attributes(tag[0]);
      const entry = filament(Number(a.id), a.type, a.color);
      if (entry) used.push(entry);
    }
    plates.set(Number(index[1]), used);
  }
  return plates;
}

export function parseProjectSettings(json: string): ProjectFilament[] {
  let settings: unknown;
  try {
    settings = JSON.parse(json);
  } catch {
    return [];
  }
  const types = (settings as { filament_type?: unknown })?.filament_type;
  const colours = (settings as { filament_colour?: unknown })?.filament_colour;
  if (!Array.isArray(types)) return [];
  return types
    .map((type, i) =>
      filament(i + 1, typeof type === 'string' ? type : undefined, Array.isArray(colours) && typeof colours[i] === 'string' ? colours[i] : undefined),
    )
    .filter((f): f is ProjectFilament => f !== null);
}

/** The filaments a plate needs: its slice info, else every configured filament; null when the file says nothing. */
export function filamentsForPlate(project: ProjectFilaments | null, plate: number): ProjectFilament[] | null {
  if (!project) return null;
  const sliced = project.plates.get(plate);
  if (sliced && sliced.length > 0) return sliced;
  return project.configured.length > 0 ? project.configured : null;
}

/** Feed it the file's bytes in order; `result()` after the last. A file that is not a ZIP yields null. */
export class ProjectFilamentReader {
  private readonly unzip: Unzip;
  private readonly parts = new Map<string, Uint8Array[]>();
  private readonly done = new Set<string>();
  private broken = false;

  constructor() {
    this.unzip = new Unzip((file) => {
      if (file.name !== SLICE_INFO && file.name !== PROJECT_SETTINGS) return;
      const chunks: Uint8Array[] = [];
      let size = 0;
      this.parts.set(file.name, chunks);
      file.ondata = (err, data, final) => {
        if (err) {
          this.parts.delete(file.name);
          return;
        }
        size += data.length;
        if (size > MAX_PART_BYTES) {
          this.parts.delete(file.name);
          file.terminate();
          return;
        }
        chunks.push(data);
        if (final) this.done.add(file.name);
      };
      try {
        file.start();
      } catch {
        // A compression method we cannot inflate: the part stays unread.
        this.parts.delete(file.name);
      }
    });
    this.unzip.register(UnzipInflate);
  }

  push(chunk: Uint8Array): void {
    if (this.broken) return;
    try {
      this.unzip.push(chunk);
    } catch {
      this.broken = true;
    }
  }

  result(): ProjectFilaments | null {
    if (!this.broken) {
      try {
        this.unzip.push(new Uint8Array(0), true);
      } catch {
        this.broken = true;
      }
    }
    const text = (name: string): string | null => {
      const chunks = this.parts.get(name);
      return chunks && this.done.has(name) ? Buffer.concat(chunks).toString('utf8') : null;
    };
    const sliceInfo = text(SLICE_INFO);
    const settings = text(PROJECT_SETTINGS);
    if (sliceInfo === null && settings === null) return null;
    return {
      plates: sliceInfo === null ? new Map() : parseSliceInfo(sliceInfo),
      configured: settings === null ? [] : parseProjectSettings(settings),
    };
  }
}
