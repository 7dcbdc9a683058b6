/**
 * Imports a PrusaSlicer vendor bundle (`Vendor.ini`). Sections inherit from one or more parents
 * (`inherits = *common*; *0.4nozzle*`, applied left to right, then the section's own keys); we
 * flatten that in INI terms first, because several conversions need the final values together
 * (a first-layer height in % of the layer height, widths in % of it), then map keys to ours.
 * Abstract `*name*` sections only feed others; SLA sections are skipped.
 */
import path from 'node:path';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { SETTINGS, type ConfigPatch } from '../schema.js';
import { makeProfileId } from '../ids.js';
import { profileLabelProblem } from '../labels.js';
import { emptyReport, type Profile, type ProfileBatch, type ProfileKind } from '../types.js';
import { coerceSetting } from './coerce.js';
import { decodeIniString, readIni, splitIniList, type IniSection } from './ini-reader.js';
import { CONSUMED_KEYS, PRUSASLICER_RULES, iniValueFor, type PrusaSectionType, type Rule } from './prusaslicer-keys.js';

const KIND_OF: Readonly<Record<PrusaSectionType, ProfileKind>> = { printer: 'printer', filament: 'filament', print: 'process' };
const METADATA_SECTIONS = new Set(['vendor', 'printer_model', 'presets', 'obsolete_presets']);

const isAbstract = (name: string): boolean => name.startsWith('*') && name.endsWith('*');

/** Resolves `inherits` within one section type, memoised; throws naming the broken link. */
class IniFlattener {
  private readonly done = new Map<string, Map<string, string>>();

  constructor(private readonly sections: ReadonlyMap<string, IniSection>) {}

  flatten(name: string, trail: string[] = []): Map<string, string> {
    const cached = this.done.get(name);
    if (cached !== undefined) return cached;
    if (trail.includes(name)) {
      throw new AppError(ErrorCode.badRequest, 400, `inheritance cycle: ${[...trail, name].join(' → ')}`);
    }
    const section = this.sections.get(name);
    if (section === undefined) {
      throw new AppError(ErrorCode.profileNotFound, 404, `"${trail[trail.length - 1]}" inherits from unknown section "${name}"`);
    }
    const merged = new Map<string, string>();
    for (const parent of splitIniList(section.values.get('inherits') ?? '')) {
      for (const [key, value] of this.flatten(parent, [...trail, name])) merged.set(key, value);
    }
    for (const [key, value] of section.values) if (key !== 'inherits') merged.set(key, value);
    this.done.set(name, merged);
    return merged;
  }
}

interface BundleContext {
  file: string;
  vendor: string;
  models: ReadonlyMap<string, string>;
  batch: ProfileBatch;
}

export function importPrusaSlicerBundle(text: string, file: string): ProfileBatch {
  const sections = readIni(text);
  const batch: ProfileBatch = { profiles: [], report: emptyReport() };
  const vendorSection = sections.find((s) => s.type === 'vendor');
  const vendor = decodeIniString(vendorSection?.values.get('name') ?? path.basename(file, '.ini'));
  const models = new Map<string, string>();
  for (const s of sections) {
    // "&&" is how the bundles escape "&" for menu labels.
    if (s.type === 'printer_model') models.set(s.name, decodeIniString(s.values.get('name') ?? s.name).replace(/&&/g, '&'));
  }
  const byType = new Map<PrusaSectionType, Map<string, IniSection>>();
  const unsupported = new Map<string, number>();
  for (const s of sections) {
    if (s.type in PRUSASLICER_RULES) {
      const type = s.type as PrusaSectionType;
      let ofType = byType.get(type);
      if (!ofType) {
        ofType = new Map();
        byType.set(type, ofType);
      }
      ofType.set(s.name, s);
    } else if (!METADATA_SECTIONS.has(s.type)) {
      unsupported.set(s.type, (unsupported.get(s.type) ?? 0) + 1);
    }
  }
  for (const [type, count] of unsupported) {
    batch.report.skipped.push({
      file,
      name: `[${type}:…] × ${count}`,
      reason: type.startsWith('sla_') ? 'SLA profiles are not supported' : `unknown section type "${type}"`,
    });
  }

  const ctx: BundleContext = { file, vendor, models, batch };
  const printerNames = new Set([...(byType.get('printer')?.keys() ?? [])].filter((n) => !isAbstract(n)));
  const usedIds = new Set<string>();
  for (const type of ['printer', 'filament', 'print'] as const) {
    const group = byType.get(type);
    if (group === undefined) continue;
    const flattener = new IniFlattener(group);
    for (const name of group.keys()) {
      if (isAbstract(name)) continue;
      let raw: Map<string, string>;
      try {
        raw = flattener.flatten(name);
      } catch (err) {
        batch.report.skipped.push({ file, name, reason: err instanceof AppError ? err.message : String(err) });
        continue;
      }
      if (type === 'printer' && (raw.get('printer_technology') ?? 'FFF').trim() !== 'FFF') {
        batch.report.skipped.push({ file, name, reason: 'SLA printers are not supported' });
        continue;
      }
      const profile = buildProfile(ctx, type, name, raw, printerNames);
      const labelProblem = profileLabelProblem(profile);
      if (labelProblem !== null) {
        batch.report.skipped.push({ file, name, reason: labelProblem });
        continue;
      }
      if (usedIds.has(profile.id)) profile.id = `${profile.id}-${profile.kind}`;
      if (usedIds.has(profile.id)) {
        batch.report.skipped.push({ file, name, reason: `another section already produced the id "${profile.id}"` });
        continue;
      }
      usedIds.add(profile.id);
      batch.profiles.push({ profile, file });
    }
  }
  return batch;
}

function buildProfile(
  ctx: BundleContext,
  type: PrusaSectionType,
  name: string,
  raw: ReadonlyMap<string, string>,
  printerNames: ReadonlySet<string>,
): Profile {
  const kind = KIND_OF[type];
  const id = makeProfileId(ctx.vendor, name);
  const warn = (message: string): void => {
    ctx.batch.report.warnings.push({ file: ctx.file, profile: id, message });
  };
  const profile: Profile = {
    id,
    kind,
    name,
    vendor: ctx.vendor,
    instantiable: true,
    is_default: false,
    source: 'prusaslicer-import',
    settings: mapSettings(PRUSASLICER_RULES[type], kind, raw, warn, ctx.batch.report.droppedKeys),
  };
  const notes = decodeIniString(raw.get(type === 'filament' ? 'filament_notes' : 'notes') ?? '').trim();
  if (notes !== '') profile.description = notes;
  if (type === 'printer') {
    const model = decodeIniString(raw.get('printer_model') ?? '');
    if (model !== '') profile.printer_model = ctx.models.get(model) ?? model;
  } else {
    const compatible = splitIniList(raw.get('compatible_printers') ?? '').filter((n) => printerNames.has(n));
    if (compatible.length > 0) profile.compatible_printers = compatible.map((n) => makeProfileId(ctx.vendor, n));
  }
  return profile;
}

function mapSettings(
  rules: Readonly<Record<string, Rule>>,
  kind: ProfileKind,
  raw: ReadonlyMap<string, string>,
  warn: (message: string) => void,
  dropped: Record<string, number>,
): ConfigPatch {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of raw) {
    if (CONSUMED_KEYS.has(key)) continue;
    const rule = rules[key];
    if (rule === undefined) {
      dropped[key] = (dropped[key] ?? 0) + 1;
      continue;
    }
    const mapped = typeof rule === 'string' ? [[rule, value] as const] : rule(value, { raw, warn });
    for (const [target, targetValue] of mapped) {
      if (SETTINGS[target].kind !== kind) {
        warn(`"${key}" maps to the ${SETTINGS[target].kind} setting "${target}", which a ${kind} profile cannot hold; dropped`);
        continue;
      }
      const parsed = coerceSetting(target, iniValueFor(target, targetValue), (m) => warn(`from "${key}": ${m}`));
      if (parsed !== undefined) settings[target] = parsed;
    }
  }
  return settings as ConfigPatch;
}
