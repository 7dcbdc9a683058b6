/**
 * `GET /api/printers/discover`: the printers this box could add.
 * - Bambu Lab printers heard announcing themselves (bambu-listener.ts), each with whether it is
 *   already added (a printer with its serial) and, when not, the body for POST /api/printers
 *   without the access code (it is on the printer's screen, never announced).
 * - The serial ports (hardware/serial/port-list.ts), each probed with M115 (marlin-probe.ts) to
 *   tell a Marlin printer, its machine type, extruders and capabilities — except a port that a
 *   configured printer uses (by its path, its by-id link or where either points): opening it
 *   would reset the board and cut the driver's connection, so it is shown as in use instead.
 * Ports are probed in parallel; a discover with probing takes up to the probe timeout (6 s).
 */
import { realpathSync } from 'node:fs';
import { isLoopback } from '../../../common/http-server.js';
import type { Logger } from '../../../common/logger.js';
import { listSerialPorts, type SerialPortEntry } from '../../../hardware/serial/port-list.js';
import { BAMBU_SSDP_PORT } from '../families/bambu-lan/ssdp.js';
import type { PrinterFleet } from '../fleet.js';
import type { PrinterView } from '../printer.js';
import { BambuSsdpListener, type HeardPrinter } from './bambu-listener.js';
import { DEFAULT_PROBE, probeMarlin, type ProbeOptions, type ProbeResult } from './marlin-probe.js';

export interface DiscoveryOptions {
  /** UDP port of the Bambu announcements (2021; tests use a free one). */
  ssdpPort?: number;
  /** The serial ports to show (tests add their ptys, which udev does not list). */
  listPorts?: () => Promise<SerialPortEntry[]>;
  probe?: Partial<ProbeOptions>;
}

function resolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function connectionField(view: PrinterView, field: string): string | null {
  const value = (view.connection as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
}

function bambuView(heard: HeardPrinter, printers: readonly PrinterView[]): Record<string, unknown> {
  const added = printers.find((p) => p.type === 'bambu-lan' && connectionField(p, 'serial')?.toUpperCase() === heard.serial);
  return {
    serial: heard.serial,
    host: heard.host,
    model: heard.model,
    model_code: heard.modelCode,
    name: heard.name,
    firmware: heard.firmware,
    connect_mode: heard.connectMode,
    signal_dbm: heard.signalDbm,
    last_seen: new Date(heard.lastSeen).toISOString(),
    added: added !== undefined,
    printer_id: added?.id ?? null,
    add: added
      ? null
      : {
          name: heard.name ?? `${heard.model ?? 'Bambu Lab'} ${heard.serial.slice(-4)}`,
          type: 'bambu-lan',
          ...(heard.model ? { model: heard.model } : {}),
          connection: { host: heard.host, serial: heard.serial },
        },
  };
}

function probeView(result: ProbeResult | null): Record<string, unknown> | null {
  if (result === null) return null;
  if (!result.marlin) return { marlin: false, reason: result.reason };
  const f = result.firmware;
  return {
    marlin: true,
    firmware: f.name,
    machine_type: f.machineType,
    extruder_count: f.extruders,
    uuid: f.uuid,
    capabilities: f.capabilities,
  };
}

export class PrinterDiscovery {
  private listener: BambuSsdpListener | null = null;
  private opened = false;
  private readonly probeOptions: ProbeOptions;

  constructor(
    private readonly fleet: Pick<PrinterFleet, 'list'>,
    private readonly log: Logger,
    private readonly options: DiscoveryOptions = {},
  ) {
    this.probeOptions = { ...DEFAULT_PROBE, ...options.probe };
  }

  /**
   * Starts listening for announcements once the dashboard listens: on loopback when it listens
   * there only (the tests), else on every address, where the printers' broadcasts arrive.
   */
  async listening(bind: string): Promise<void> {
    if (this.listener || !this.opened) return;
    const address = isLoopback(bind) ? '127.0.0.1' : '0.0.0.0';
    this.listener = new BambuSsdpListener({ address, port: this.options.ssdpPort ?? BAMBU_SSDP_PORT, log: this.log });
    await this.listener.start();
  }

  /** The feature started: listening may begin once the dashboard listens. */
  open(): void {
    this.opened = true;
  }

  async stop(): Promise<void> {
    this.opened = false;
    await this.listener?.stop();
    this.listener = null;
  }

  async discover(probe: boolean): Promise<Record<string, unknown>> {
    const printers = this.fleet.list();
    const serial = await this.serialPorts(printers, probe);
    const listener = this.listener?.state() ?? { listening: false, address: null, port: this.options.ssdpPort ?? BAMBU_SSDP_PORT, error: null };
    return {
      bambu: { ...listener, printers: (this.listener?.printers() ?? []).map((h) => bambuView(h, printers)) },
      serial,
    };
  }

  private async serialPorts(printers: readonly PrinterView[], probe: boolean): Promise<Record<string, unknown>> {
    let ports: SerialPortEntry[];
    try {
      ports = await (this.options.listPorts ?? listSerialPorts)();
    } catch (err) {
      return { error: `cannot list the serial ports: ${err instanceof Error ? err.message : String(err)}`, ports: [] };
    }
    const inUse = new Map<string, string>();
    for (const p of printers) {
      const port = p.type === 'marlin-serial' ? connectionField(p, 'port') : null;
      if (port) {
        inUse.set(port, p.id);
        inUse.set(resolved(port), p.id);
      }
    }
    const entries = await Promise.all(
      ports.map(async (entry) => {
        const user = [entry.path, entry.by_id_path, resolved(entry.path)].map((p) => (p ? inUse.get(p) : undefined)).find(Boolean) ?? null;
        const result = user === null && probe ? await probeMarlin(entry.path, this.probeOptions) : null;
        const found = probeView(result);
        const firmware = result?.marlin ? result.firmware : null;
        return {
          ...entry,
          in_use_by: user,
          probe: found,
          add: firmware
            ? {
                name: firmware.machineType ?? 'Marlin printer',
                type: 'marlin-serial',
                ...(firmware.machineType ? { model: firmware.machineType } : {}),
                connection: { port: entry.by_id_path ?? entry.path, baud: this.probeOptions.baud },
              }
            : null,
        };
      }),
    );
    return { error: null, ports: entries };
  }
}
