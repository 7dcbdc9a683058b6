/** JSON schemas of the desktop-slicer bridge's routes. */
import type { JsonSchema } from '../../http/route.js';
import { SLICE_FORM_PROPERTIES } from '../slice-http.js';
import { DESKTOP_SLICERS } from './slicers.js';
import { PROFILE_KINDS } from '../../../slicer/index.js';

const slicerId: JsonSchema = { type: 'string', enum: DESKTOP_SLICERS.map((s) => s.id) };

const detectedSlicer: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'path', 'version', 'can_slice', 'profile_dirs'],
  properties: {
    id: slicerId,
    name: { type: 'string' },
    path: { type: 'string', description: 'The executable found.' },
    version: { type: ['string', 'null'], description: 'As the slicer printed it; null when it did not say.' },
    can_slice: { type: 'boolean', description: 'The bridge slices with it (PrusaSlicer; CuraEngine with its definitions installed).' },
    reason: { type: 'string', description: 'Why it cannot slice.' },
    profile_dirs: { type: 'array', items: { type: 'string' } },
  },
};

export const probeSchema: JsonSchema = {
  type: 'object',
  required: ['slicers', 'available'],
  properties: {
    slicers: { type: 'array', items: detectedSlicer },
    available: { type: 'boolean', description: 'The bridge can take a slice now.' },
    reason: { type: 'string', description: 'Why it cannot, when it cannot.' },
  },
};

export const probeQuery: Record<string, JsonSchema> = {
  force: { type: 'string', enum: ['0', '1'], description: '1 scans again instead of answering from the one-minute cache.' },
};

export const profilesQuery: Record<string, JsonSchema> = {
  slicer: slicerId,
  kind: { type: 'string', enum: [...PROFILE_KINDS] },
  vendor: { type: 'string', maxLength: 128, description: 'Exact vendor name, ignoring case.' },
};

export const profilesSchema: JsonSchema = {
  type: 'object',
  required: ['slicers'],
  properties: {
    slicers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['slicer', 'name', 'profiles', 'skipped'],
        properties: {
          slicer: slicerId,
          name: { type: 'string' },
          profiles: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'kind', 'name', 'vendor', 'file'],
              properties: {
                id: {
                  type: ['string', 'null'],
                  description:
                    'The id bridge/slice takes (printer_id, filament_ids, process_id); null for Cura definitions, which are listed for reference.',
                },
                kind: { type: 'string', enum: [...PROFILE_KINDS] },
                name: { type: 'string' },
                vendor: { type: 'string' },
                printer_model: { type: 'string' },
                file: { type: 'string' },
              },
            },
          },
          skipped: {
            type: 'array',
            items: {
              type: 'object',
              required: ['file', 'reason'],
              properties: { file: { type: 'string' }, name: { type: 'string' }, reason: { type: 'string' } },
            },
          },
        },
      },
    },
  },
};

export const sliceFormSchema: JsonSchema = {
  type: 'object',
  required: ['model', 'printer_id', 'filament_ids', 'process_id'],
  properties: SLICE_FORM_PROPERTIES,
};

export const sliceAndSendFormSchema: JsonSchema = {
  type: 'object',
  required: ['model', 'printer_id', 'filament_ids', 'process_id'],
  properties: {
    ...SLICE_FORM_PROPERTIES,
    printer_id: { type: 'string', description: 'The dashboard printer (GET /api/printers) to print on.' },
    printer_profile_id: { type: 'string', description: "Printer profile to slice with; default the printer's `printer_profile`." },
  },
};

export const sentSchema: JsonSchema = {
  type: 'object',
  required: [
    'printer_id',
    'printer_name',
    'remote_name',
    'started',
    'backend',
    'slicer',
    'layers',
    'estimated_time_s',
    'filament_g',
    'duration_ms',
    'warnings',
  ],
  properties: {
    printer_id: { type: 'string' },
    printer_name: { type: 'string' },
    remote_name: { type: 'string', description: 'The file name on the printer.' },
    started: { type: 'boolean' },
    backend: { type: 'string', enum: ['bridge'] },
    slicer: { type: 'object', properties: { id: slicerId, name: { type: 'string' }, version: { type: ['string', 'null'] } } },
    layers: { type: ['integer', 'null'] },
    estimated_time_s: { type: ['number', 'null'] },
    filament_g: { type: 'array', items: { type: 'number' } },
    duration_ms: { type: 'integer' },
    warnings: { type: 'array', items: { type: 'string' } },
  },
};
