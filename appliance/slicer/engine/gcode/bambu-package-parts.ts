/**
 * The small parts of a Bambu `.gcode.3mf` ("plate sliced file"), laid out as Bambu Studio writes
 * them. What the printers and Bambu Studio check, and why each part is here, is in README.md.
 */
import { SETTINGS, formatSetting, type PrintConfig, type SettingDef, type SettingKey } from '../../profiles/schema.js';
import { bambuBedType } from './bed-temperature.js';

export interface BambuFilament {
  /** 1-based filament (AMS slot order), as Bambu numbers them. */
  id: number;
  type: string;
  /** "#RRGGBB" */
  color: string;
  /** Bambu filament id (`GFA00` for Bambu PLA Basic): what the printer matches AMS trays with. */
  tray_info_idx: string;
  used_m: number;
  used_g: number;
}

export interface BambuPlate {
  prediction_s: number;
  weight_g: number;
  filaments: BambuFilament[];
  /** XY extent of everything printed: [minX, minY, maxX, maxY], mm. */
  bbox: [number, number, number, number];
}

export interface BambuObject {
  /** The object's `identify_id`: its label id in the G-code, which the printer's "skip object" uses. Never 0. */
  id: number;
  name: string;
  /** Footprint on the bed: [minX, minY, maxX, maxY], mm. */
  bbox: [number, number, number, number];
  /** Footprint area (convex hull), mm². */
  area: number;
}

/** Names of the presets the plate was sliced with, as Bambu Studio records them. */
export interface BambuPresetNames {
  printer?: string;
  print?: string;
  /** One per filament slot. */
  filaments?: readonly string[];
}

export const GCODE_PART = 'Metadata/plate_1.gcode';
export const THUMBNAIL_PART = 'Metadata/plate_1.png';
export const SMALL_THUMBNAIL_PART = 'Metadata/plate_1_small.png';
export const PLATE_JSON_PART = 'Metadata/plate_1.json';
/** The plate seen from above, lit, framed on the whole bed. */
export const TOP_PART = 'Metadata/top_1.png';
/** The same view with each object filled flat in the colour that encodes its identify_id. */
export const PICK_PART = 'Metadata/pick_1.png';

/**
 * The slice_info header's client version: the Bambu Studio file format we follow, not our own
 * version. The printers require a non-empty value.
 */
const BAMBU_CLIENT_VERSION = '01.10.00.00';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

function metadata(key: string, value: string | number | boolean): string {
  return `<metadata key="${escapeXml(key)}" value="${escapeXml(String(value))}"/>`;
}

export function contentTypesXml(): string {
  return [
    XML_DECLARATION,
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
    ' <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
    ' <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>',
    ' <Default Extension="png" ContentType="image/png"/>',
    ' <Default Extension="gcode" ContentType="text/x.gcode"/>',
    '</Types>',
    '',
  ].join('\n');
}

export function rootRelsXml(): string {
  return [
    XML_DECLARATION,
    `<Relationships xmlns="${RELATIONSHIPS_NS}">`,
    ' <Relationship Target="/3D/3dmodel.model" Id="rel-1" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>',
    ` <Relationship Target="/${THUMBNAIL_PART}" Id="rel-2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"/>`,
    ` <Relationship Target="/${THUMBNAIL_PART}" Id="rel-4" Type="http://schemas.bambulab.com/package/2021/cover-thumbnail-middle"/>`,
    ` <Relationship Target="/${SMALL_THUMBNAIL_PART}" Id="rel-5" Type="http://schemas.bambulab.com/package/2021/cover-thumbnail-small"/>`,
    '</Relationships>',
    '',
  ].join('\n');
}

/** The model part is empty: a plate sliced file carries G-code, not meshes. */
export function modelXml(version: string): string {
  return [
    XML_DECLARATION,
    '<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"' +
      ' xmlns:BambuStudio="http://schemas.bambulab.com/package/2021"' +
      ' xmlns:p="http://schemas.microsoft.com/3dmanufacturing/production/2015/06" requiredextensions="p">',
    ` <metadata name="Application">Printyard-${escapeXml(version)}</metadata>`,
    ' <metadata name="BambuStudio:3mfVersion">1</metadata>',
    ` <metadata name="Thumbnail_Middle">/${THUMBNAIL_PART}</metadata>`,
    ` <metadata name="Thumbnail_Small">/${SMALL_THUMBNAIL_PART}</metadata>`,
    ' <resources>',
    ' </resources>',
    ' <build/>',
    '</model>',
    '',
  ].join('\n');
}

export function modelSettingsXml(): string {
  return [
    XML_DECLARATION,
    '<config>',
    '  <plate>',
    `    ${metadata('plater_id', 1)}`,
    `    ${metadata('plater_name', '')}`,
    `    ${metadata('locked', false)}`,
    `    ${metadata('gcode_file', GCODE_PART)}`,
    `    ${metadata('thumbnail_file', THUMBNAIL_PART)}`,
    `    ${metadata('top_file', TOP_PART)}`,
    `    ${metadata('pick_file', PICK_PART)}`,
    `    ${metadata('pattern_bbox_file', PLATE_JSON_PART)}`,
    '  </plate>',
    '</config>',
    '',
  ].join('\n');
}

export function modelSettingsRelsXml(): string {
  return [
    XML_DECLARATION,
    `<Relationships xmlns="${RELATIONSHIPS_NS}">`,
    ` <Relationship Target="/${GCODE_PART}" Id="rel-1" Type="http://schemas.bambulab.com/package/2021/gcode"/>`,
    '</Relationships>',
    '',
  ].join('\n');
}

/** Bambu Connect expects extruder_type and nozzle_volume_type ahead of printer_model_id. */
export function sliceInfoXml(config: PrintConfig, plate: BambuPlate, objects: readonly BambuObject[]): string {
  const filaments = plate.filaments.map(
    (f) =>
      `    <filament id="${f.id}" tray_info_idx="${escapeXml(f.tray_info_idx)}" type="${escapeXml(f.type)}" color="${escapeXml(f.color)}"` +
      ` used_m="${f.used_m.toFixed(2)}" used_g="${f.used_g.toFixed(2)}"/>`,
  );
  return [
    XML_DECLARATION,
    '<config>',
    '  <header>',
    '    <header_item key="X-BBL-Client-Type" value="slicer"/>',
    `    <header_item key="X-BBL-Client-Version" value="${BAMBU_CLIENT_VERSION}"/>`,
    '  </header>',
    '  <plate>',
    `    ${metadata('index', 1)}`,
    `    ${metadata('extruder_type', 0)}`,
    `    ${metadata('nozzle_volume_type', 0)}`,
    `    ${metadata('printer_model_id', config.printer_model_id)}`,
    `    ${metadata('nozzle_diameters', config.nozzle_diameter.join(','))}`,
    `    ${metadata('timelapse_type', 0)}`,
    `    ${metadata('prediction', Math.round(plate.prediction_s))}`,
    `    ${metadata('weight', plate.weight_g.toFixed(2))}`,
    `    ${metadata('outside', false)}`,
    `    ${metadata('support_used', config.enable_support)}`,
    `    ${metadata('label_object_enabled', config.gcode_label_objects)}`,
    ...objects.map((o) => `    <object identify_id="${o.id}" name="${escapeXml(o.name)}" skipped="false"/>`),
    ...filaments,
    '  </plate>',
    '</config>',
    '',
  ].join('\n');
}

/** A setting as OrcaSlicer stores it in JSON: strings, per-extruder and point lists as string arrays. */
function orcaJsonValue(key: SettingKey, value: unknown): string | string[] {
  const def: SettingDef = SETTINGS[key];
  const raw = def.type === 'gcode' || def.type === 'string';
  if (def.type === 'points') return formatSetting(key, value).split(',').filter(Boolean);
  if (def.perExtruder && Array.isArray(value)) return value.map((v) => (raw ? String(v) : formatSetting(key, [v])));
  return raw ? String(value) : formatSetting(key, value);
}

/**
 * Every setting, plus the keys Bambu Studio adds to a sliced project: `filament_ids` (each slot's
 * Bambu filament id, from our `filament_id`) and the preset names, `*_settings_id`.
 */
export function projectSettingsJson(config: PrintConfig, presets: BambuPresetNames = {}): string {
  const out: Record<string, string | string[]> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) out[key] = orcaJsonValue(key, config[key]);
  out.filament_ids = [...config.filament_id];
  out.filament_settings_id = config.filament_type.map((_, k) => presets.filaments?.[k] ?? '');
  out.print_settings_id = presets.print ?? '';
  out.printer_settings_id = presets.printer ?? '';
  const sorted = Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((key) => [key, out[key]]),
  );
  return `${JSON.stringify(sorted, null, 4)}\n`;
}

const round3 = (v: number): number => Math.round(v * 1000) / 1000;

export function plateJson(config: PrintConfig, plate: BambuPlate, objects: readonly BambuObject[]): string {
  const used = [...plate.filaments].sort((a, b) => a.id - b.id);
  return `${JSON.stringify({
    bbox_all: plate.bbox,
    bbox_objects: objects.map((o) => ({
      area: round3(o.area),
      bbox: o.bbox.map(round3),
      id: o.id,
      layer_height: config.layer_height,
      name: o.name,
    })),
    bed_type: bambuBedType(config),
    filament_colors: used.map((f) => f.color),
    filament_ids: used.map((f) => f.id - 1),
    first_extruder: used.length > 0 ? used[0].id - 1 : 0,
    is_seq_print: false,
    nozzle_diameter: config.nozzle_diameter[0],
    version: 2,
  })}\n`;
}
