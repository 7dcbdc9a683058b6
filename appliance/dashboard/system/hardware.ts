/**
 * What hardware support this machine offers, for /api/system/info. Every probe is soft: a
 * missing piece is reported, never fatal (the appliance also runs on a laptop or in CI).
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';

export interface HardwareSupport {
  serial: { available: boolean; error: string | null };
  gpio: { available: boolean; chips: string[]; sysfs: boolean };
  systemd_notify: { available: boolean };
}

/** The mDNS announcement's state (dashboard/network/presence.ts), added per request since it changes. */
export interface MdnsState {
  running: boolean;
  note: string;
}

/** Whether the serialport native binding loads on this platform. */
async function probeSerial(): Promise<HardwareSupport['serial']> {
  try {
    await import('serialport');
    return { available: true, error: null };
  } catch (err) {
    return { available: false, error: err instanceof Error ? err.message : String(err) };
  }
}

async function probeGpio(devDir: string, sysfsDir: string): Promise<HardwareSupport['gpio']> {
  let chips: string[] = [];
  try {
    chips = (await readdir(devDir)).filter((name) => /^gpiochip\d+$/.test(name)).sort();
  } catch {
    // No /dev to read: no chips.
  }
  const sysfs = existsSync(sysfsDir);
  return { available: chips.length > 0 || sysfs, chips, sysfs };
}

export interface HardwareProbeOptions {
  /** systemd supervises the process: sd_notify (READY, WATCHDOG) reaches it. */
  underSystemd: boolean;
  devDir?: string;
  gpioSysfsDir?: string;
}

export async function probeHardware(options: HardwareProbeOptions): Promise<HardwareSupport> {
  const [serial, gpio] = await Promise.all([probeSerial(), probeGpio(options.devDir ?? '/dev', options.gpioSysfsDir ?? '/sys/class/gpio')]);
  return {
    serial,
    gpio,
    systemd_notify: { available: options.underSystemd },
  };
}
