/**
 * A slicer service that writes what it should not: it echoes the Authorization header it got
 * into its version label, its error messages and its job records, names credentials and server
 * paths in free text, and sends an error code that is not one. For the tests of what the
 * dashboard shows of the service's text (redact.ts, job-view.ts). Every request is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const RUNNING_JOB = 'aaaa000000000001';
export const DONE_JOB = 'bbbb000000000002';
export const FAILED_JOB = 'cccc000000000003';
export const SERVER_DIR = '/srv/printyard-slicer/jobs';

export interface EchoUpstream {
  url: string;
  requests: Array<{ method: string; path: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function jobList(auth: string): unknown {
  const job = (id: string, state: string, extra: Record<string, unknown>) => ({
    id,
    state,
    model_name: 'cube.stl',
    model_size: 684,
    created_at: '2026-01-01T00:00:00.000Z',
    stage: null,
    pct: 0,
    result: null,
    error: null,
    ...extra,
  });
  return {
    running: [job(RUNNING_JOB, 'running', { work_dir: `${SERVER_DIR}/${RUNNING_JOB}`, overrides: { note: `see ${SERVER_DIR}/x/y` } })],
    queued: [],
    finished: [
      job(DONE_JOB, 'done', {
        pct: 100,
        result: {
          ok: true,
          job_id: DONE_JOB,
          gcode_path: `${SERVER_DIR}/${DONE_JOB}/cube.gcode`,
          gcode_size: 4,
          layers: 1,
          format: 'gcode',
          warnings: [`wrote ${SERVER_DIR}/${DONE_JOB}/cube.gcode`],
          gcode_url: `/api/jobs/${DONE_JOB}/gcode`,
          preview_url: `/api/jobs/${DONE_JOB}/preview.png`,
        },
      }),
      job(FAILED_JOB, 'failed', { error: { code: 'ERR_SLICE_FAILED', message: `could not read ${SERVER_DIR}/${FAILED_JOB}/model.stl (${auth})` } }),
    ],
    limits: { workers: 1, queue_size: 4 },
    jobs_dir: SERVER_DIR,
  };
}

export async function startEchoUpstream(): Promise<EchoUpstream> {
  const requests: EchoUpstream['requests'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://echo');
    const auth = req.headers.authorization ?? '(none)';
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, authorization: req.headers.authorization });
    req.resume();
    req.once('end', () => {
      const route = `${req.method} ${url.pathname}`;
      if (route === 'GET /api/version') {
        return send(res, 200, {
          version: `1.0 (${auth})`,
          api: 1,
          upstream: `built by http://ci:hunter2@ci.example/ with password=hunter2\u202e and ${auth.replace('Bearer ', 'token: ')}`,
        });
      }
      if (route === 'GET /api/health') return send(res, 200, { ok: true });
      if (route === 'GET /api/profiles') {
        const vendor = url.searchParams.get('vendor');
        if (vendor === 'echo') return send(res, 404, { error: `no vendor "echo" for ${auth}`, code: 'ERR_PROFILE_NOT_FOUND' });
        if (vendor === 'odd-code') return send(res, 404, { error: 'no such vendor', code: '<b>not a code</b>' });
        return send(res, 200, { profiles: [] });
      }
      if (route === 'GET /api/jobs') return send(res, 200, jobList(auth));
      send(res, 404, { error: `no route ${route}`, code: 'ERR_NOT_FOUND' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
