/**
 * Serves the browser app at `/`: the built files (client/ compiled by build/ into `public/` beside
 * this module), and `index.html` for every other GET that is not the API's or the WebSocket's, so
 * that the app's own paths (`/login`, `/fleet?state=error`) survive a reload. It is not a set of
 * RouteSpecs: these are not API operations, and the OpenAPI description stays the API's.
 *
 * Hashed assets are cached for a year; index.html (300 bytes compressed) is fetched again at every
 * load, so a new build is picked up at once. No ETag/304: hyper-express sends a bodiless 304 with a
 * broken Content-Length that kills the kept-alive connection, and revalidating 300 bytes saves
 * nothing. Each answer is the precompressed form the browser accepts.
 */
import { fileURLToPath } from 'node:url';
import type { Request, Response, Server } from 'hyper-express';
import { AppError, ErrorCode } from '../../common/errors.js';
import { sendError } from '../../common/http-errors.js';
import type { Logger } from '../../common/logger.js';
import { APP_CSP } from '../../common/security-headers.js';
import type { DashboardFeature } from '../feature.js';
import { chooseEncoding, loadStaticFiles, type StaticFile } from './static-files.js';

/** Where the build writes the app, next to this module in dist/. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('./public/', import.meta.url));

const INDEX = '/index.html';
const YEAR_S = 365 * 24 * 3600;

/** Paths that belong to the API and the WebSocket: an unknown one there is the API's JSON 404, never the app. */
function isApiPath(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/') || urlPath === '/ws' || urlPath.startsWith('/ws/');
}

/** A missing file (`/favicon.ico`, an old asset) is a 404, not the app: only extension-less paths are the app's pages. */
function looksLikeFile(urlPath: string): boolean {
  return /\.[A-Za-z0-9]+$/.test(urlPath.slice(urlPath.lastIndexOf('/') + 1));
}

function send(request: Request, response: Response, file: StaticFile): void {
  response.header('content-type', file.contentType);
  response.header('cache-control', file.immutable ? `public, max-age=${YEAR_S}, immutable` : 'no-cache');
  response.header('vary', 'accept-encoding');
  if (file.contentType.startsWith('text/html')) response.header('content-security-policy', APP_CSP, true);
  const encoding = chooseEncoding(file, request.headers['accept-encoding']);
  if (encoding !== 'identity') response.header('content-encoding', encoding);
  response.send(file.bodies[encoding] ?? file.bodies.identity);
}

export interface WebFeatureOptions {
  log: Logger;
  /** The built app; default `public/` beside this module. */
  dir?: string;
}

export function createWebFeature(options: WebFeatureOptions): DashboardFeature {
  const dir = options.dir ?? DEFAULT_WEB_DIR;
  let files: Map<string, StaticFile> | null = null;
  let problem: string | null = null;

  const handle = (request: Request, response: Response) => {
    const urlPath = request.path;
    if (isApiPath(urlPath)) {
      sendError(response, new AppError(ErrorCode.notFound, 404, `no route ${request.method} ${urlPath}`), options.log);
      return;
    }
    if (files === null) {
      sendError(response, new AppError(ErrorCode.unavailable, 503, `the web app is not available: ${problem ?? 'not loaded yet'}`), options.log);
      return;
    }
    const file = files.get(urlPath) ?? (looksLikeFile(urlPath) ? undefined : files.get(INDEX));
    if (file === undefined) {
      sendError(response, new AppError(ErrorCode.notFound, 404, `no file ${urlPath}`), options.log);
      return;
    }
    send(request, response, file);
  };

  return {
    name: 'web',
    routes: [],
    install(app: Server) {
      // uWS tries static and parameter routes before wildcards, so the API's routes and the
      // WebSocket upgrade keep their paths; this catches the rest of GET. (No HEAD: uWS closes a
      // kept-alive connection after a HEAD answer that states a length; browsers never send one.)
      app.get('/*', handle);
    },
    async start() {
      try {
        const loaded = await loadStaticFiles(dir);
        if (!loaded.has(INDEX)) throw new Error(`${dir} has no index.html`);
        files = loaded;
      } catch (err) {
        problem = `${err instanceof Error ? err.message : String(err)} (run npm run build)`;
        throw new AppError(ErrorCode.unavailable, 503, problem);
      }
    },
    info() {
      return { files: files?.size ?? 0, problem };
    },
  };
}
