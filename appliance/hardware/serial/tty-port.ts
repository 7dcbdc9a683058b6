/**
 * Opens a serial port with serialport, but reads it in a way that survives a hang-up.
 *
 * When the other side of a tty goes away (a pty whose master closes, a USB adapter pulled out),
 * the kernel hangs the tty up and read() returns 0 bytes from then on. serialport's reader
 * (bindings-cpp 13) treats 0 bytes as "nothing yet, read again" and spins in a tight loop, never
 * reporting the disconnect, when the hang-up lands while a read is in flight. Here 0 bytes ends
 * the read with an error, which serialport turns into a `close` event with a disconnect error;
 * "no data yet" (EAGAIN) still waits for the port to become readable — unless the port was
 * closed meanwhile: its poller is destroyed then, and polling it crashes the process (SIGSEGV).
 *
 * Used by the Marlin driver (dashboard) and by the virtual Marlin and its test host.
 */
import { read } from 'node:fs';
import { promisify } from 'node:util';
import { SerialPort } from 'serialport';

type Binding = typeof SerialPort.binding;
type PortBinding = Awaited<ReturnType<Binding['open']>>;
type OpenOptions = Parameters<Binding['open']>[0];

/** The parts of bindings-cpp's unix port binding the reader needs. */
interface UnixPortInternals {
  fd: number | null;
  poller: { once(event: 'readable', listener: (err?: Error | null) => void): unknown };
}

const readAsync = promisify(read);
const TRY_AGAIN = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

class PortClosedError extends Error {
  readonly canceled = true;
}

function readable(port: UnixPortInternals): Promise<void> {
  return new Promise((resolve, reject) => {
    port.poller.once('readable', (err) => (err ? reject(err) : resolve()));
  });
}

async function readTty(port: UnixPortInternals, buffer: Buffer, offset: number, length: number): Promise<{ bytesRead: number; buffer: Buffer }> {
  for (;;) {
    if (port.fd === null) throw new PortClosedError('Port is not open');
    let bytesRead: number;
    try {
      ({ bytesRead } = await readAsync(port.fd, buffer, offset, length, null));
    } catch (err) {
      if (!TRY_AGAIN.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
      // Closed while the read was under way: the poller is destroyed, and polling it crashes the process.
      if (port.fd === null) throw new PortClosedError('Port is not open');
      await readable(port);
      continue;
    }
    if (bytesRead === 0) throw new Error('the serial line hung up');
    return { bytesRead, buffer };
  }
}

const detected = SerialPort.binding;

/** The platform binding with the hang-up-safe reader (unix bindings; others are left as they are). */
const binding = {
  ...detected,
  async open(options: OpenOptions): Promise<PortBinding> {
    const port = await (detected.open as (o: OpenOptions) => Promise<PortBinding>)(options);
    const internals = port as unknown as Partial<UnixPortInternals>;
    if (typeof internals.fd === 'number' && internals.poller) {
      const unix = internals as UnixPortInternals;
      port.read = (buffer: Buffer, offset: number, length: number) => readTty(unix, buffer, offset, length);
    }
    return port;
  },
};

/** Opens `path` (8N1, raw) and resolves once it is open. */
export function openTty(path: string, baudRate = 115200): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    // SerialPort's options leave `binding` out of their type, but its constructor takes one.
    const options = { path, baudRate, binding };
    const port: SerialPort = new SerialPort(options, (err) => (err ? reject(err) : resolve(port)));
  });
}
