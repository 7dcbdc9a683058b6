/**
 * `POST /api/filaments/import`: a Spoolman export (spools, filaments or vendors; CSV or JSON),
 * uploaded as a file (multipart/form-data, part `file`) or sent as the body itself
 * (application/json, text/csv). Admin: one request adds many records at once.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Request } from 'hyper-express';
import { maxBodyBytes, readMultipart, type UploadLimits } from '../../../common/multipart.js';
import { readBody } from '../../http/body.js';
import type { RouteSpec } from '../../http/route.js';
import { validationError } from '../../http/validate.js';
import type { Inventory } from '../inventory.js';
import { TAG } from '../routes.js';
import { parseCsv } from './csv.js';
import { importExport } from './importer.js';
import { parseJson } from './json.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, type ExportTable } from './table.js';

const LIMITS: UploadLimits = { maxFileBytes: MAX_IMPORT_BYTES, maxFieldBytes: 1024, maxFiles: 1, maxFields: 1 };
const FILE_FIELD = 'file';

type Format = 'csv' | 'json';

const created = { type: 'array', items: { type: 'object' } };
const resultSchema = {
  type: 'object',
  properties: {
    kind: { type: ['string', 'null'], enum: ['spools', 'filaments', 'vendors', null] },
    created: { type: 'object', properties: { vendors: created, filaments: created, spools: created } },
    skipped: { type: 'array', items: { type: 'object' } },
    failed: { type: 'array', items: { type: 'object' } },
  },
};

/** The text of the export; UTF-8 (a byte-order mark is dropped). */
function decode(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw validationError([{ path: 'body', message: 'is not UTF-8 text' }]);
  }
  if (text.trim() === '') throw validationError([{ path: 'body', message: 'is empty' }]);
  return text;
}

/** An uploaded file's format: its name's extension, else its type, else its first character (a JSON export starts with `[`). */
function formatOfUpload(fileName: string, mimeType: string, text: string): Format {
  const ext = path.extname(fileName).toLowerCase();
  if (ext === '.json' || ext === '.csv') return ext.slice(1) as Format;
  if (/json/i.test(mimeType)) return 'json';
  if (/csv/i.test(mimeType)) return 'csv';
  return /^\s*[[{]/.test(text) ? 'json' : 'csv';
}

async function readUpload(req: Request): Promise<{ text: string; format: Format }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'printyard-import-'));
  try {
    const form = await readMultipart(req, dir, LIMITS, [FILE_FIELD]);
    const file = form.files.get(FILE_FIELD);
    if (file === undefined) throw validationError([{ path: `body/${FILE_FIELD}`, message: 'is required (the export file)' }]);
    const text = decode(await readFile(file.path));
    return { text, format: formatOfUpload(file.fileName, file.mimeType, text) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function readExport(req: Request): Promise<ExportTable> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  let upload: { text: string; format: Format };
  if (type === 'multipart/form-data') upload = await readUpload(req);
  else if (type === 'application/json' || type === 'text/csv') {
    upload = { text: decode(await readBody(req, MAX_IMPORT_BYTES)), format: type === 'text/csv' ? 'csv' : 'json' };
  } else {
    throw validationError([{ path: 'body', message: `must be multipart/form-data, application/json or text/csv, not ${type || 'none'}` }]);
  }
  return upload.format === 'csv' ? parseCsv(upload.text) : parseJson(upload.text);
}

export function importRoutes(inventory: Inventory): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/api/filaments/import',
      level: 'admin',
      tag: TAG,
      summary: 'Import a Spoolman export (spools, filaments or vendors; CSV or JSON)',
      description:
        "The file Spoolman's `/api/v1/export/spools|filaments|vendors?fmt=csv|json` produces, as the `file` part of a form or as the body " +
        "(`application/json`, `text/csv`). Vendors and filaments are found by the same fields as a flat spool's, or made; a spool " +
        'imported before is skipped. Every row is answered: created, skipped with the reason, or failed naming the row and field. ' +
        `The good rows land together in one write; a file that cannot be read changes nothing (400). At most ` +
        `${MAX_IMPORT_BYTES / (1024 * 1024)} MB and ${MAX_IMPORT_ROWS} rows.`,
      body: {
        kind: 'raw',
        contentType: 'multipart/form-data',
        maxBytes: maxBodyBytes(LIMITS),
        schema: { type: 'object', properties: { file: { type: 'string' } } },
      },
      responses: {
        200: { description: 'What each row became.', schema: resultSchema },
        400: { description: 'The file is not a Spoolman export that can be read (ERR_VALIDATION); nothing was imported.' },
        413: { description: `The export is larger than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB (ERR_PAYLOAD_TOO_LARGE).` },
      },
      async handler({ req }) {
        return importExport(inventory, await readExport(req));
      },
    },
  ];
}
