/**
 * The HTTP server every service uses: hyper-express on the native uWebSockets.js build.
 *
 * Three traps are closed here. On a Node without a matching uWS binary the package silently swaps
 * in a JavaScript shim that fails later ("Not implemented"), so the native build is asserted up
 * front. uWS binds with SO_REUSEPORT, so a second service on a taken port would "succeed" and
 * share the port; a plain exclusive bind is tried first to detect the conflict. And uWS sets
 * SO_REUSEADDR (and SO_REUSEPORT) only when it is given a port number: on port 0 its socket has
 * neither, the connections it accepts inherit that, and after the process dies with connections
 * open their TIME_WAIT entries (a minute) keep anyone from binding that port again. So port 0 is
 * resolved to a free port number here and uWS is given the number.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import { Server } from 'hyper-express';
import { AppError, ErrorCode } from './errors.js';
import { guardRequestBodies } from './http-guards.js';
import type { Logger } from './logger.js';
import { securityHeaders } from './security-headers.js';

export const ERR_ADDRESS_IN_USE = 'ERR_ADDRESS_IN_USE';

/** Throws unless the native uWebSockets.js binding is the one hyper-express loaded. */
export function assertNativeUws(): void {
  const require = createRequire(import.meta.url);
  const uws = require('uWebSockets.js') as Record<string, unknown>;
  const native = typeof uws.getParts === 'function' && typeof uws.SSLApp === 'function' && !('default' in uws);
  if (!native) {
    throw new AppError(
      ErrorCode.internal,
      500,
      `uWebSockets.js has no native build for Node ${process.versions.node} ` +
        `(ABI ${process.versions.modules}, ${process.platform}-${process.arch}); ` +
        'it fell back to a JavaScript shim that cannot serve requests. Run Node 20.',
    );
  }
}

export interface HttpServerOptions {
  /** A declared body larger than this is refused (413) before a handler runs, unless the route sets its own `max_body_length`. */
  maxBodyBytes: number;
  log: Logger;
}

/**
 * A server whose every response carries the security headers, with the request guards of
 * http-guards.ts ahead of every route.
 */
export function createHttpServer(options: HttpServerOptions): Server {
  assertNativeUws();
  // auto_close would add its own SIGTERM/SIGINT listeners and close the port under a draining
  // service. The body limit is the guards' (hyper-express's answers an empty 413 of its own).
  const server = new Server({ auto_close: false, max_body_length: Number.MAX_SAFE_INTEGER });
  server.use(securityHeaders);
  guardRequestBodies(server, options.log, options.maxBodyBytes);
  return server;
}

/** True for addresses that only the local machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

function probePort(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new AppError(ERR_ADDRESS_IN_USE, 500, `port ${port} on ${host} is already in use`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        reject(new AppError(ERR_ADDRESS_IN_USE, 500, `cannot bind to ${host}: no such local address`));
      else if (err.code === 'EACCES') reject(new AppError(ERR_ADDRESS_IN_USE, 500, `no permission to listen on port ${port} of ${host}`));
      else reject(err);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A port that is free on `host` now, picked by the kernel. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/* Port 0: how many free ports are tried, should another socket take one between pick and bind. */
const FREE_PORT_ATTEMPTS = 5;

/**
 * Listens on host:port and returns the port actually bound. Port 0 picks a free one, which uWS is
 * then given by number so that its socket has SO_REUSEADDR like any other (see above).
 */
export async function listen(server: Server, host: string, port: number): Promise<number> {
  if (port !== 0) {
    await probePort(host, port);
    try {
      await server.listen(port, host);
    } catch {
      throw new AppError(ERR_ADDRESS_IN_USE, 500, `cannot listen on ${host}:${port}`);
    }
    return server.port;
  }
  for (let attempt = 1; ; attempt++) {
    const free = await freePort(host).catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
        ? new AppError(ERR_ADDRESS_IN_USE, 500, `cannot bind to ${host}: no such local address`)
        : err;
    });
    try {
      await server.listen(free, host);
      return server.port;
    } catch {
      if (attempt >= FREE_PORT_ATTEMPTS) throw new AppError(ERR_ADDRESS_IN_USE, 500, `cannot listen on a free port of ${host}`);
    }
  }
}

/** Closes the port and every open connection (idle keep-alive ones would keep the process alive). */
export function closeServer(server: Server): void {
  server.close();
  // TemplatedApp.close exists in this uWS build but is missing from its type declarations.
  (server.uws_instance as unknown as { close(): void }).close();
}
