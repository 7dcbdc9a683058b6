/**
 * TCP port helpers for servers we cannot ask for port 0 (mosquitto needs its ports in its config).
 */
import net from 'node:net';

/**
 * `count` distinct ports the OS has just handed out on `host`, all held until every one is
 * chosen; free unless another program grabs one before we bind it.
 */
export async function freePorts(host: string, count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => resolve());
      });
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Waits until every port accepts TCP connections. `failed` is asked between attempts and ends the
 * wait with its message (e.g. the server process exited).
 */
export async function waitForPorts(host: string, ports: readonly number[], timeoutMs: number, failed: () => string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(ports);
  while (pending.size > 0) {
    const reason = failed();
    if (reason !== null) throw new Error(reason);
    for (const port of [...pending]) if (await accepts(host, port)) pending.delete(port);
    if (pending.size === 0) return;
    if (Date.now() > deadline) throw new Error(`ports ${[...pending].join(', ')} on ${host} did not open within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
