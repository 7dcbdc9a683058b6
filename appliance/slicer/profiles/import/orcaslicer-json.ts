/**
 * Imports OrcaSlicer / Bambu Studio profile folders: `<Vendor>.json` (the index, listing
 * machine_model_list, machine_list, process_list, filament_list as {name, sub_path}) beside a
 * `<Vendor>/` folder with `machine/`, `filament/`, `process/` JSON files. Files in those folders
 * that the index does not list (exported user presets) are read too. Values are Orca's strings
 * ("15%", ["0.4"], "nil" for "not set"), keys are already ours; `inherits` names a parent, which we
 * turn into the parent's id so that the catalogue resolves the chain.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { SETTINGS, isSettingKey, type SettingDef, type SettingKey } from '../schema.js';
import { makeProfileId } from '../ids.js';
import { profileLabelProblem } from '../labels.js';
import { emptyReport, type Profile, type ProfileBatch, type ProfileKind } from '../types.js';
import { coerceSetting } from './coerce.js';

type OrcaType = 'machine_model' | 'machine' | 'filament' | 'process';
const KIND_OF: Readonly<Record<Exclude<OrcaType, 'machine_model'>, ProfileKind>> = { machine: 'printer', filament: 'filament', process: 'process' };
const LISTS: ReadonlyArray<[string, OrcaType]> = [
  ['machine_model_list', 'machine_model'],
  ['machine_list', 'machine'],
  ['process_list', 'process'],
  ['filament_list', 'filament'],
];

/** Identity, compatibility and UI keys: read here or meaningless to us, so not counted as dropped. */
const METADATA_KEYS = new Set([
  'type',
  'name',
  'inherits',
  'from',
  'instantiation',
  'setting_id',
  'version',
  'description',
  'compatible_printers',
  'compatible_printers_condition',
  'compatible_prints',
  'compatible_prints_condition',
  'default_print_profile',
  'default_filament_profile',
  'default_materials',
  'upward_compatible_machine',
  'printer_settings_id',
  'print_settings_id',
  'filament_settings_id',
  'is_custom_defined',
  'renamed_from',
  'base_id',
  'user_id',
  'updated_time',
  'inherits_group',
  'thumbnails_format',
]);

interface OrcaRecord {
  vendor: string;
  file: string;
  type: OrcaType;
  name: string;
  data: Record<string, unknown>;
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

async function jsonFilesBelow(dir: string): Promise<string[]> {
  if (!(await exists(dir))) return [];
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await jsonFilesBelow(full)));
    else if (entry.isFile() && entry.name.endsWith('.json')) out.push(full);
  }
  return out;
}

function typeFromFolder(file: string, vendorDir: string): OrcaType | undefined {
  const first = path.relative(vendorDir, file).split(path.sep)[0];
  return first === 'machine' || first === 'filament' || first === 'process' ? first : undefined;
}

async function readVendor(root: string, folder: string, batch: ProfileBatch): Promise<OrcaRecord[]> {
  const vendorDir = path.join(root, folder);
  const indexFile = path.join(root, `${folder}.json`);
  let vendor = folder;
  const planned: Array<{ file: string; type?: OrcaType }> = [];
  if (await exists(indexFile)) {
    try {
      const index = JSON.parse(await readFile(indexFile, 'utf8')) as Record<string, unknown>;
      if (typeof index.name === 'string' && index.name.trim() !== '') vendor = index.name;
      for (const [list, type] of LISTS) {
        for (const entry of Array.isArray(index[list]) ? (index[list] as Array<Record<string, unknown>>) : []) {
          if (typeof entry?.sub_path === 'string') planned.push({ file: path.join(vendorDir, entry.sub_path), type });
        }
      }
    } catch (err) {
      batch.report.skipped.push({ file: indexFile, reason: `vendor index unreadable: ${(err as Error).message}` });
    }
  }
  const listed = new Set(planned.map((p) => p.file));
  for (const sub of ['machine', 'filament', 'process']) {
    for (const file of await jsonFilesBelow(path.join(vendorDir, sub))) if (!listed.has(file)) planned.push({ file });
  }
  const records: OrcaRecord[] = [];
  for (const { file, type: listedType } of planned) {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not a JSON object');
    } catch (err) {
      batch.report.skipped.push({ file, reason: `unreadable profile: ${(err as Error).message}` });
      continue;
    }
    const declared = typeof data.type === 'string' ? data.type : undefined;
    const type =
      declared === 'machine_model' || declared === 'machine' || declared === 'filament' || declared === 'process'
        ? declared
        : (listedType ?? typeFromFolder(file, vendorDir));
    const name = typeof data.name === 'string' && data.name.trim() !== '' ? data.name : path.basename(file, '.json');
    if (type === undefined) {
      batch.report.skipped.push({ file, name, reason: `unknown profile type ${JSON.stringify(declared)}` });
      continue;
    }
    records.push({ vendor, file, type, name, data });
  }
  return records;
}

/** Finds profiles by Orca name: the same vendor first, then any vendor (shared libraries). */
class NameIndex {
  private readonly byVendor = new Map<string, string>();
  private readonly anyVendor = new Map<string, string>();

  add(record: OrcaRecord, id: string): void {
    this.byVendor.set(`${record.type}\u0000${record.vendor}\u0000${record.name}`, id);
    if (!this.anyVendor.has(`${record.type}\u0000${record.name}`)) this.anyVendor.set(`${record.type}\u0000${record.name}`, id);
  }

  find(type: OrcaType, vendor: string, name: string): string | undefined {
    return this.byVendor.get(`${type}\u0000${vendor}\u0000${name}`) ?? this.anyVendor.get(`${type}\u0000${name}`);
  }
}

export async function importOrcaSlicerFolder(root: string): Promise<ProfileBatch> {
  const batch: ProfileBatch = { profiles: [], report: emptyReport() };
  if (!(await exists(root))) return batch;
  const entries = await readdir(root, { withFileTypes: true });
  const folders = new Set<string>();
  for (const e of entries) {
    if (e.isDirectory()) folders.add(e.name);
    else if (e.isFile() && e.name.endsWith('.json')) folders.add(e.name.slice(0, -'.json'.length));
  }
  const records: OrcaRecord[] = [];
  for (const folder of [...folders].sort()) records.push(...(await readVendor(root, folder, batch)));

  const modelIds = new Map<string, string>();
  for (const r of records) {
    if (r.type === 'machine_model' && typeof r.data.model_id === 'string') modelIds.set(r.name, r.data.model_id);
  }
  const names = new NameIndex();
  const usedIds = new Set<string>();
  const candidates: Array<{ record: OrcaRecord; id: string }> = [];
  for (const record of records) {
    if (record.type === 'machine_model') continue;
    let id = makeProfileId(record.vendor, record.name);
    if (usedIds.has(id)) id = `${id}-${KIND_OF[record.type]}`;
    if (usedIds.has(id)) {
      batch.report.skipped.push({ file: record.file, name: record.name, reason: `duplicate profile "${record.name}"` });
      continue;
    }
    usedIds.add(id);
    names.add(record, id);
    candidates.push({ record, id });
  }
  for (const { record, id } of candidates) {
    const profile = buildProfile(record, id, names, modelIds, batch);
    if (profile === undefined) continue;
    const labelProblem = profileLabelProblem(profile);
    if (labelProblem === null) batch.profiles.push({ profile, file: record.file });
    else batch.report.skipped.push({ file: record.file, name: record.name, reason: labelProblem });
  }
  return batch;
}

function buildProfile(
  record: OrcaRecord,
  id: string,
  names: NameIndex,
  modelIds: ReadonlyMap<string, string>,
  batch: ProfileBatch,
): Profile | undefined {
  const type = record.type as Exclude<OrcaType, 'machine_model'>;
  const kind = KIND_OF[type];
  const data = record.data;
  const parentName = typeof data.inherits === 'string' ? data.inherits.trim() : '';
  const parentId = parentName === '' ? undefined : names.find(type, record.vendor, parentName);
  if (parentName !== '' && parentId === undefined) {
    batch.report.skipped.push({ file: record.file, name: record.name, reason: `inherits unknown profile "${parentName}"` });
    return undefined;
  }
  const warn = (message: string): void => {
    batch.report.warnings.push({ file: record.file, profile: id, message });
  };
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (METADATA_KEYS.has(key)) continue;
    if (!isSettingKey(key)) {
      batch.report.droppedKeys[key] = (batch.report.droppedKeys[key] ?? 0) + 1;
      continue;
    }
    if (SETTINGS[key].kind !== kind) {
      warn(`"${key}" is a ${SETTINGS[key].kind} setting, which a ${kind} profile cannot hold; dropped`);
      continue;
    }
    const raw = key === 'thumbnails' ? thumbnailSpec(value, data.thumbnails_format) : withoutNil(key, value);
    if (raw === undefined) continue;
    const parsed = coerceSetting(key, raw, warn);
    if (parsed !== undefined) settings[key] = parsed;
  }
  const profile: Profile = {
    id,
    kind,
    name: record.name,
    vendor: record.vendor,
    instantiable: String(data.instantiation ?? 'true') !== 'false',
    is_default: false,
    source: 'orcaslicer-import',
    settings,
  };
  if (parentId !== undefined) profile.inherits = parentId;
  if (typeof data.description === 'string' && data.description.trim() !== '') profile.description = data.description;
  if (kind === 'printer' && typeof data.printer_model === 'string' && data.printer_model !== '') {
    profile.printer_model = data.printer_model;
    const modelId = modelIds.get(data.printer_model);
    if (modelId !== undefined && settings.printer_model_id === undefined) settings.printer_model_id = modelId;
    // Orca drives Bambu printers with its "marlin" flavour; our engine needs to know it is a Bambu.
    if (data.printer_model.startsWith('Bambu Lab') && settings.gcode_flavor !== 'bambu') {
      settings.gcode_flavor = 'bambu';
      warn('Bambu Lab printer: G-code flavour set to "bambu"');
    }
  }
  if (kind !== 'printer' && Array.isArray(data.compatible_printers)) {
    const ids = data.compatible_printers
      .filter((n): n is string => typeof n === 'string')
      .map((n) => names.find('machine', record.vendor, n))
      .filter((n): n is string => n !== undefined);
    if (ids.length > 0) profile.compatible_printers = ids;
  }
  return profile;
}

/** "nil" means "not set here": the key is left to the parent. Mixed lists fall back per element. */
function withoutNil(key: SettingKey, value: unknown): unknown {
  if (value === 'nil') return undefined;
  if (!Array.isArray(value) || !value.includes('nil')) return value;
  if (value.every((v) => v === 'nil')) return undefined;
  const def: SettingDef = SETTINGS[key];
  const fallback = def.perExtruder ? (def.default as unknown[])[0] : def.default;
  return value.map((v) => (v === 'nil' ? fallback : v));
}

/** The items of a JSON list or of a comma-separated string; none for anything else. */
function listItems(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? value.split(',') : [];
}

function thumbnailSpec(value: unknown, format: unknown): string | undefined {
  const sizes = listItems(value);
  const fmt = typeof format === 'string' && format.trim() !== '' ? format.trim().toUpperCase() : 'PNG';
  const specs = sizes
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.includes('/') ? s : `${s}/${fmt}`));
  return specs.join(', ');
}
