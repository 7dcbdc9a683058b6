/**
 * Node-RED embedded on its own HTTP server: `RED.init(server, settings)`, the editor and its admin
 * API (`httpAdmin`) and the flows' HTTP endpoints (`httpNode`) both at the root, as a standalone
 * Node-RED serves them, then `RED.start()`. The ready flows of `flows/` are put in Node-RED's
 * local library at every start (Import → Local → printyard), so they are one import away and a
 * newer release brings newer copies; nothing is deployed for the user.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Logger } from '../common/logger.js';
import { nodeRedSettings } from './node-red-settings.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) => void;

/** The part of Node-RED's embedding API (packages/node_modules/node-red/lib/red.js) used here. */
interface NodeRedRuntime {
  init(server: http.Server, settings: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly httpAdmin: Handler;
  readonly httpNode: Handler;
  readonly version: () => string;
}

export interface NodeRedPaths {
  /** Node-RED's userDir: flows, credentials, context, library. */
  userDir: string;
  /** Our node package. */
  nodesDir: string;
  /** The ready flows (`flows/*.json`). */
  flowsDir: string;
}

export interface NodeRedServiceOptions extends NodeRedPaths {
  port: number;
  bind: string;
  dashboardUrl: string;
  log: Logger;
}

export interface NodeRedService {
  readonly url: string;
  readonly port: number;
  readonly version: string;
  stop(): Promise<void>;
}

/** Copies `flows/*.json` into the local library's `printyard` folder. */
function offerReadyFlows(flowsDir: string, userDir: string): string[] {
  const library = path.join(userDir, 'lib', 'flows', 'printyard');
  mkdirSync(library, { recursive: true });
  const names = readdirSync(flowsDir).filter((name) => name.endsWith('.json'));
  for (const name of names) copyFileSync(path.join(flowsDir, name), path.join(library, name));
  return names;
}

function listen(server: http.Server, port: number, bind: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startNodeRed(options: NodeRedServiceOptions): Promise<NodeRedService> {
  const { log } = options;
  const RED = createRequire(import.meta.url)('node-red') as NodeRedRuntime;
  const offered = offerReadyFlows(options.flowsDir, options.userDir);
  const server = http.createServer((req, res) => {
    const notFound = (err?: unknown) => {
      if (err) log.warn(`request ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`);
      if (res.headersSent) return void res.end();
      res.writeHead(err ? 500 : 404, { 'content-type': 'text/plain' }).end(err ? 'internal error' : 'not found');
    };
    RED.httpAdmin(req, res, (err) => (err ? notFound(err) : RED.httpNode(req, res, notFound)));
  });
  RED.init(server, nodeRedSettings({ userDir: options.userDir, nodesDir: options.nodesDir, dashboardUrl: options.dashboardUrl, log }));
  const port = await listen(server, options.port, options.bind);
  try {
    await RED.start();
  } catch (err) {
    server.close();
    throw err;
  }
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;
  log.info(`ready flows in the local library: ${offered.join(', ')}`);
  return {
    url: `http://${host}:${port}`,
    port,
    version: RED.version(),
    async stop() {
      await RED.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
