/**
 * GET /api/health (cheap: a body built once at start, no disk) and GET /api/system/info: versions,
 * uptime, the data directory and its storage state (free space, state files that were unreadable
 * and moved aside, a corrupt config.json), the hardware support present, the slicer service
 * block, and each feature's own block under its name. A feature named `slicer_service` replaces
 * the configured-only block this module shows until the probe exists.
 */
import { createRequire } from 'node:module';
import { statfs } from 'node:fs/promises';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { StoreProblem } from '../../common/json-store.js';
import { packageVersion } from '../../common/version.js';
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { Reply, type JsonSchema } from '../http/route.js';
import type { FeatureStates } from '../feature-states.js';
import { probeHardware, type HardwareSupport, type MdnsState } from './hardware.js';
import { nodeRedUrl } from './node-red-link.js';
import { HEALTH_SCHEMA, SYSTEM_INFO_SCHEMA } from './schemas.js';

export const SERVICE_NAME = 'printyard-dashboard';
const TAG = 'system';
/** Keys of the info body that a feature's block may not take. */
const CORE_KEYS = ['service', 'box', 'version', 'versions', 'started_at', 'uptime_s', 'data_dir', 'storage', 'hardware', 'features'];

export interface SystemParts {
  /** config.json as found unreadable at start, if it was. */
  settingsProblem: StoreProblem | null;
  /** The features whose info() blocks the info lists. */
  features: readonly DashboardFeature[];
  /** Which of them run and which failed to start. */
  states: Pick<FeatureStates, 'list' | 'failed'>;
  /** systemd supervises the process (it gave the notify socket the service's notifier uses). */
  underSystemd: boolean;
  /** The mDNS announcement's state; absent: the dashboard has no announcement. */
  mdns?: () => MdnsState;
}

function dependencyVersion(name: string): string | null {
  try {
    const require = createRequire(import.meta.url);
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}

async function storageState(ctx: DashboardContext, settingsProblem: StoreProblem | null): Promise<Record<string, unknown>> {
  let space: { free_bytes: number | null; total_bytes: number | null; error: string | null };
  try {
    const stats = await statfs(ctx.dataDir);
    space = { free_bytes: stats.bavail * stats.bsize, total_bytes: stats.blocks * stats.bsize, error: null };
  } catch (err) {
    space = { free_bytes: null, total_bytes: null, error: err instanceof Error ? err.message : String(err) };
  }
  const problems = [...(settingsProblem ? [settingsProblem] : []), ...ctx.stores.problems()];
  return { ...space, ok: problems.length === 0 && space.error === null, problems };
}

export function createSystemFeature(ctx: DashboardContext, parts: SystemParts): DashboardFeature {
  for (const feature of parts.features) {
    if (CORE_KEYS.includes(feature.name)) {
      throw new AppError(ErrorCode.internal, 500, `feature name "${feature.name}" is taken by a key of /api/system/info`);
    }
  }
  const version = packageVersion();
  const health = JSON.stringify({ ok: true, service: SERVICE_NAME, version, started_at: ctx.startedAt.toISOString() });
  const versions = {
    printyard: version,
    node: process.versions.node,
    uws: dependencyVersion('uWebSockets.js'),
    hyper_express: dependencyVersion('hyper-express'),
  };
  let hardware: Promise<HardwareSupport> | null = null;
  const mdnsState = (): MdnsState => {
    const state = parts.mdns?.() ?? { running: false, note: 'this dashboard has no mDNS announcement' };
    return { running: state.running, note: state.note };
  };

  const info = async (hostHeader: string | undefined): Promise<Record<string, unknown>> => {
    hardware ??= probeHardware({ underSystemd: parts.underSystemd });
    const slicer = ctx.settings.current.slicer_service;
    const body: Record<string, unknown> = {
      service: SERVICE_NAME,
      box: { name: ctx.settings.current.box.name },
      version,
      versions,
      started_at: ctx.startedAt.toISOString(),
      uptime_s: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
      data_dir: ctx.dataDir,
      storage: await storageState(ctx, parts.settingsProblem),
      hardware: { ...(await hardware), mdns: mdnsState() },
      features: parts.states.list(),
      slicer_service: { enabled: slicer.enabled, url: slicer.url, ok: null, version: null, upstream: null, last_check: null, error: null },
      automation: { node_red_url: nodeRedUrl(ctx.settings.current.automation.node_red_url, hostHeader) },
    };
    for (const feature of parts.features) {
      if (feature.info && !parts.states.failed(feature.name)) body[feature.name] = feature.info();
    }
    return body;
  };

  const jsonSchema = (schema: JsonSchema) => ({ description: 'OK', schema });
  return {
    name: 'system',
    routes: [
      {
        method: 'get',
        path: '/api/health',
        level: 'public',
        tag: TAG,
        rateLimited: false,
        summary: 'Liveness probe',
        description: 'Answers from memory (no disk, no upstream), so it stays fast under load. Not rate limited.',
        responses: { 200: jsonSchema(HEALTH_SCHEMA) },
        handler: () => new Reply(200, health, { 'content-type': 'application/json', 'cache-control': 'no-store' }),
      },
      {
        method: 'get',
        path: '/api/system/info',
        level: 'view',
        tag: TAG,
        summary: 'Versions, uptime, storage, hardware support and the state of every feature',
        responses: { 200: jsonSchema(SYSTEM_INFO_SCHEMA) },
        handler: ({ req }) => info(req.headers.host),
      },
    ],
  };
}
