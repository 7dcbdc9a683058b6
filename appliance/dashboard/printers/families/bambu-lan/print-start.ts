/**
 * What a `print.project_file` start says, decided before anything is sent:
 * - the file: a name on the card's root (uploaded by `upload()`), a `.3mf` project; the request
 *   names it as `url: "ftp://<name>"` (the form Bambuddy uses against real firmware) and `file`;
 *   `param` is the plate's G-code inside the project, `Metadata/plate_<n>.gcode`;
 * - the AMS mapping for this printer (ams-mapping.ts), unless the caller gave one: a used
 *   filament whose material is loaded nowhere refuses the start (409) rather than print with
 *   the wrong material; a project that names no filaments is sent without a mapping, and the
 *   printer feeds filament n from tray n as it does by default;
 * - `subtask_id`: a fresh non-zero number, so the job is recognisably ours when the printer
 *   echoes it; `project_id`, `profile_id`, `task_id` are "0" as for every local print.
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import type { PlannedFeed, StartOptions } from '../../driver.js';
import type { AmsTray, AmsUpdate } from '../../status.js';
import { computeAmsMapping, EXTERNAL_SPOOL, loadedTrays } from './ams-mapping.js';
import type { ProjectFilament } from './project-filaments.js';
import type { Json } from './report-state.js';

/* Names a printer's card and the `ftp://` URL take without escaping. */
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ ()+-]{0,127}$/;
const MAX_PLATE = 64;

/** A file name for the card's root: letters, digits, `._ ()+-`, ending in `.3mf` or `.gcode`. */
export function checkRemoteName(name: string): void {
  if (!REMOTE_NAME.test(name) || name.includes('..') || !/\.(3mf|gcode)$/i.test(name)) {
    throw new AppError(
      ErrorCode.validation,
      400,
      `"${name}" is not a file name the printer takes: letters, digits, ". _ ( ) + -" and spaces, up to 128, ending in .3mf or .gcode`,
    );
  }
}

export interface MappingPlan {
  /** Null: the project names no filaments, no mapping is sent. */
  mapping: number[] | null;
  useAms: boolean;
}

export function planMapping(
  filaments: readonly ProjectFilament[] | null,
  ams: AmsUpdate | null,
  explicit: readonly number[] | undefined,
): MappingPlan {
  if (explicit !== undefined) {
    if (!explicit.every((id) => Number.isInteger(id) && id >= EXTERNAL_SPOOL)) {
      throw new AppError(ErrorCode.validation, 400, 'ams_mapping must hold global tray ids (unit * 4 + slot) or -1');
    }
    return { mapping: [...explicit], useAms: explicit.some((id) => id >= 0) };
  }
  const trays = loadedTrays(ams);
  if (filaments === null) return { mapping: null, useAms: trays.length > 0 };
  const { mapping, unmatched } = computeAmsMapping(filaments, trays, ams?.external ?? null);
  if (unmatched.length > 0) {
    const missing = filaments.filter((f) => unmatched.includes(f.id)).map((f) => `filament ${f.id} (${f.type}${f.color ? ` ${f.color}` : ''})`);
    throw new AppError(
      ErrorCode.conflict,
      409,
      `the printer has no spool loaded for ${missing.join(', ')}; load it, or start with an explicit ams_mapping`,
      { unmatched },
    );
  }
  return { mapping, useAms: mapping.some((id) => id >= 0) };
}

const TRAYS_PER_UNIT = 4;

function colourOf(tray: AmsTray | null, fallback: string | null): string | null {
  const hex = /^#?([0-9A-Fa-f]{6})/.exec(tray?.color ?? '');
  return hex ? `#${hex[1].toUpperCase()}` : fallback;
}

/**
 * Where each filament the plate uses is fed from under `mapping` (a global tray id, or -1 for the
 * external spool), with what the printer reports loaded there; empty when the project names no
 * filaments (no mapping is sent, and nobody can say which tray the printer picks).
 */
export function plannedFeeds(filaments: readonly ProjectFilament[] | null, mapping: readonly number[] | null, ams: AmsUpdate | null): PlannedFeed[] {
  if (filaments === null || mapping === null) return [];
  return filaments.map((f) => {
    const id = mapping[f.id - 1] ?? EXTERNAL_SPOOL;
    if (id === EXTERNAL_SPOOL) {
      const external = ams?.external?.present ? ams.external : null;
      return {
        filament: f.id,
        slot: { kind: 'external' },
        material: external?.material?.toUpperCase() ?? f.type,
        color_hex: colourOf(external, f.color),
      };
    }
    const unit = Math.floor(id / TRAYS_PER_UNIT);
    const slot = id % TRAYS_PER_UNIT;
    const tray = ams?.units.find((u) => u.id === unit)?.trays.find((t) => t.slot === slot && t.present) ?? null;
    return {
      filament: f.id,
      slot: { kind: 'ams', unit, tray: slot },
      material: tray?.material?.toUpperCase() ?? f.type,
      color_hex: colourOf(tray, f.color),
    };
  });
}

export function projectFileRequest(name: string, options: StartOptions, plan: MappingPlan, subtaskId: string): Json {
  const plate = options.plate ?? 1;
  if (!Number.isInteger(plate) || plate < 1 || plate > MAX_PLATE)
    throw new AppError(ErrorCode.validation, 400, `plate must be an integer from 1 to ${MAX_PLATE}`);
  if (!/\.3mf$/i.test(name)) throw new AppError(ErrorCode.validation, 400, `Bambu Lab printers start projects (.gcode.3mf); ${name} is not one`);
  return {
    param: `Metadata/plate_${plate}.gcode`,
    url: `ftp://${name}`,
    file: name,
    md5: '',
    bed_type: 'auto',
    timelapse: options.timelapse ?? false,
    bed_leveling: options.bed_leveling ?? true,
    flow_cali: false,
    vibration_cali: false,
    layer_inspect: false,
    use_ams: plan.useAms,
    ...(plan.mapping ? { ams_mapping: plan.mapping } : {}),
    subtask_name: name.replace(/(\.gcode)?\.3mf$/i, ''),
    project_id: '0',
    profile_id: '0',
    task_id: '0',
    subtask_id: subtaskId,
  };
}
