/**
 * GET /api/health and GET /api/version. Both bodies are built once at start: the health probe
 * must stay cheap (no disk, no engine) even while a slice keeps the machine busy.
 */
import { packageVersion } from '../../../common/version.js';
import type { RouteInstaller } from '../context.js';

export const SERVICE_NAME = 'printyard-slicer';
/** Contract version of the REST API; bumped only on a breaking change. */
export const API_VERSION = 1;

export function upstreamLabel(version: string): string {
  return `Printyard engine ${version} (OrcaSlicer setting names)`;
}

export const installInfoRoutes: RouteInstaller = (app, ctx) => {
  const version = packageVersion();
  const health = JSON.stringify({
    ok: true,
    service: SERVICE_NAME,
    version,
    upstream: upstreamLabel(version),
    started_at: ctx.startedAt.toISOString(),
    config_dir: ctx.config.dir,
  });
  const versionBody = JSON.stringify({ version, api: API_VERSION, upstream: upstreamLabel(version) });
  app.get('/api/health', (_req, res) => {
    res.header('content-type', 'application/json').header('cache-control', 'no-store').send(health);
  });
  app.get('/api/version', (_req, res) => {
    res.header('content-type', 'application/json').send(versionBody);
  });
};
