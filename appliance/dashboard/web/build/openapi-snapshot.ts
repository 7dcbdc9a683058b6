/**
 * The dashboard's OpenAPI description as the running server builds it: the real composition
 * (features.ts) started on a free loopback port in a throwaway data directory, its registered
 * routes read, the server stopped. Building it from the real route list, not a copy, is what makes
 * a changed endpoint reach the web app's types.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../common/logger.js';
import { startDashboard } from '../../app.js';
import { buildOpenApi } from '../../openapi/document.js';

export async function dashboardOpenApi(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'printyard-openapi-'));
  // Quiet: features that find nothing to talk to (no slicer service, no printers) say so at warn.
  const log = createLogger({ name: 'openapi-snapshot', level: 'error', write: () => {} });
  try {
    const server = await startDashboard({ port: 0, bind: '127.0.0.1', data_dir: dataDir, log_level: 'error' }, log, { env: {} });
    try {
      return buildOpenApi(server.routes);
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
