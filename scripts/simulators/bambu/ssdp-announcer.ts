/**
 * The SSDP announcements of the virtual printers: what a Bambu Lab printer in LAN mode sends
 * every few seconds so that slicers find it — `NOTIFY * HTTP/1.1` with `Location:` its IP,
 * `USN:` its serial, `NT: urn:bambulab-com:device:3dprinter:1` and the `Dev*.bambu.com`
 * headers (model code, the name set in the app, firmware, signal, LAN mode, unbound). Real
 * printers send it to 255.255.255.255:2021 (and 239.255.255.250:1990); here the target is
 * given, so a test receives it on loopback. One socket for the farm.
 */
import dgram from 'node:dgram';
import type { Logger } from '../../../appliance/common/logger.js';

export interface SsdpTarget {
  address: string;
  port: number;
  /** Between two announcements of a printer. */
  intervalMs: number;
}

export interface AnnouncedPrinter {
  serial: string;
  /** The address clients connect to (Location). */
  host: string;
  modelCode: string;
  name: string;
  firmware: string;
}

export function notifyMessage(p: AnnouncedPrinter): string {
  const lines = [
    'NOTIFY * HTTP/1.1',
    'HOST: 239.255.255.250:1990',
    'Server: UPnP/1.0',
    `Location: ${p.host}`,
    'NT: urn:bambulab-com:device:3dprinter:1',
    `USN: ${p.serial}`,
    'Cache-Control: max-age=1800',
    `DevModel.bambu.com: ${p.modelCode}`,
    `DevName.bambu.com: ${p.name}`,
    'DevSignal.bambu.com: -45',
    'DevConnect.bambu.com: lan',
    'DevBind.bambu.com: free',
    'Devseclink.bambu.com: secure',
    `DevVersion.bambu.com: ${p.firmware}`,
    'DevCap.bambu.com: 1',
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export class SsdpAnnouncer {
  private readonly socket = dgram.createSocket({ type: 'udp4' });
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly target: SsdpTarget,
    private readonly printers: readonly AnnouncedPrinter[],
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.bind(0, () => resolve()));
    if (this.target.address === '255.255.255.255') this.socket.setBroadcast(true);
    this.announce();
    this.timer = setInterval(() => this.announce(), this.target.intervalMs);
  }

  stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private announce(): void {
    for (const printer of this.printers) {
      this.socket.send(notifyMessage(printer), this.target.port, this.target.address, (err) => {
        if (err) this.log.warn(`SSDP announcement of ${printer.serial} failed: ${err.message}`);
      });
    }
  }
}
