/**
 * `POST /api/gcode/estimate`: the body is the file itself (raw G-code or a `.gcode.3mf`), received
 * into a temporary folder that is removed after the answer. Estimates run on the event loop in 1 MB
 * steps; two at a time keeps a box responsive, a third is refused with 429 rather than queued.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { RouteSpec } from '../http/route.js';
import { estimateReport } from './estimate-report.js';
import { ESTIMATE_REPORT_SCHEMA, errorSchemaRef } from './schemas.js';
import { ESTIMATE_MAX_BYTES, receiveGcode } from './upload.js';

const MAX_RUNNING = 2;

export function estimateRoute(tag: string): RouteSpec {
  let running = 0;
  return {
    method: 'post',
    path: '/api/gcode/estimate',
    level: 'view',
    tag,
    summary: 'Estimate a G-code file: print time, filament, layers, and the slicer’s own estimate beside ours',
    description:
      'The body is the file: G-code as written by a slicer, or a `.gcode.3mf` package (BambuStudio, OrcaSlicer; its lowest plate is ' +
      'estimated and `file.plates` lists them all). Up to 50 MB, streamed. Our motion planner replays the moves with the machine ' +
      'limits the slicer embedded in the file (PrusaSlicer, OrcaSlicer), else Marlin defaults; the file’s own M201/M203/M204/M205 ' +
      'apply. Time per feature type comes from the slicer’s `;TYPE:` / `; FEATURE:` comments ("Other" for moves before any). ' +
      'Grams use the `density` query, else the file’s `filament_density`, else 1.24 g/cm³ (PLA); `filament.density_source` says which. ' +
      '`slicer_estimate` is what the file says of itself (null when it says nothing); `difference_percent` is ours against it.',
    query: {
      density: { type: 'number', exclusiveMinimum: 0, maximum: 25, description: 'Filament density in g/cm³ for every tool.' },
      diameter: { type: 'number', exclusiveMinimum: 0, maximum: 5, description: 'Filament diameter in mm for every tool.' },
    },
    body: { kind: 'raw', contentType: 'application/octet-stream', maxBytes: ESTIMATE_MAX_BYTES },
    responses: {
      200: { description: 'The estimate.', schema: ESTIMATE_REPORT_SCHEMA },
      400: {
        description: 'An empty body, a package without G-code, a line over 1 MB, or a bad query (ERR_BAD_REQUEST, ERR_VALIDATION).',
        schema: errorSchemaRef,
      },
      413: { description: 'The upload is over 50 MB, or the package would inflate past 200 MB (ERR_PAYLOAD_TOO_LARGE).', schema: errorSchemaRef },
      422: { description: 'The file holds no moves: not G-code (ERR_BAD_REQUEST).', schema: errorSchemaRef },
      429: { description: 'Two estimates are already running (ERR_TOO_MANY_JOBS).', schema: errorSchemaRef },
    },
    handler: async ({ req, query }) => {
      if (running >= MAX_RUNNING) throw new AppError(ErrorCode.tooManyJobs, 429, `${running} estimates are running; try again shortly`);
      running++;
      const dir = await mkdtemp(join(tmpdir(), 'printyard-estimate-'));
      try {
        const received = await receiveGcode(req, dir);
        return await estimateReport(received, {
          density: query.density === undefined ? undefined : Number(query.density),
          diameter: query.diameter === undefined ? undefined : Number(query.diameter),
        });
      } finally {
        running--;
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
