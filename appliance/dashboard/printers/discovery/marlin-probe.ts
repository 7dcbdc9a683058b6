/**
 * Asks whatever is on a serial port who it is: opens it, sends `M115` (unnumbered, which Marlin
 * accepts; repeated every second, since most boards reset when the port opens and their
 * bootloader drops what arrives meanwhile), and reads the `FIRMWARE_NAME:` line and the `Cap:`
 * lines up to the `ok` (firmware-info.ts of the Marlin family reads them). Anything else within
 * the time — silence, noise, another protocol — is "not Marlin". The port is closed either way.
 * Opening a port resets most boards (DTR), which is why discovery never opens a configured
 * printer's port.
 */
import type { SerialPort } from 'serialport';
import { openTty } from '../../../hardware/serial/tty-port.js';
import { type FirmwareInfo, isFirmwareLine, parseFirmwareInfo } from '../families/marlin-serial/firmware-info.js';

export interface ProbeOptions {
  baud: number;
  timeoutMs: number;
  repeatMs: number;
}

export const DEFAULT_PROBE: ProbeOptions = { baud: 115200, timeoutMs: 6000, repeatMs: 1000 };

export type ProbeResult = { marlin: true; firmware: FirmwareInfo } | { marlin: false; reason: string };

function closeQuietly(port: SerialPort): Promise<void> {
  return new Promise((resolve) => {
    if (!port.isOpen) resolve();
    else port.close(() => resolve());
  });
}

export async function probeMarlin(portPath: string, options: ProbeOptions = DEFAULT_PROBE): Promise<ProbeResult> {
  let port: SerialPort;
  try {
    port = await openTty(portPath, options.baud);
  } catch (err) {
    return { marlin: false, reason: `cannot open: ${err instanceof Error ? err.message : String(err)}` };
  }
  const result = await new Promise<ProbeResult>((resolve) => {
    let pending = '';
    let answer: string[] | null = null;
    const ask = () => port.write('M115\n');
    const finish = (r: ProbeResult) => {
      clearInterval(repeat);
      clearTimeout(deadline);
      port.removeListener('data', onData);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      const lines = pending.split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines.map((l) => l.trim())) {
        if (isFirmwareLine(line)) answer = [line];
        else if (answer && /^ok\b/.test(line)) return finish({ marlin: true, firmware: parseFirmwareInfo(answer) });
        else answer?.push(line);
      }
    };
    const repeat = setInterval(ask, options.repeatMs);
    const deadline = setTimeout(
      () => finish({ marlin: false, reason: `no Marlin answer to M115 within ${options.timeoutMs / 1000} s at ${options.baud} baud` }),
      options.timeoutMs,
    );
    port.on('data', onData);
    port.once('close', () => finish({ marlin: false, reason: 'the port closed' }));
    ask();
  });
  await closeQuietly(port);
  return result;
}
