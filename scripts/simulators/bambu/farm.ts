/**
 * A farm of virtual Bambu printers on this machine: one CA, one mosquitto broker with a TLS
 * listener per printer (its port stands for the printer's 8883), and per printer an implicit-FTPS
 * server (its 990) on its own SD-card folder and the printer's logic. Everything lives in one
 * folder: a temp folder removed on stop, or a given folder kept (with its CA) between runs.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../../appliance/common/logger.js';
import type { AmsOptions } from './ams.js';
import { MosquittoBroker } from './broker.js';
import { createCertificateAuthority, issuePrinterCertificate } from './certs.js';
import { otherAccessCode, type FaultName } from './faults.js';
import { FtpsServer } from './ftps-server.js';
import { isModelName, MODELS, type ModelName } from './models.js';
import { internalUserName, type InternalUser, type PrinterListener } from './mosquitto-config.js';
import { freePorts } from './ports.js';
import { VirtualBambuPrinter } from './printer.js';
import { SdCard } from './sd-card.js';
import { SsdpAnnouncer, type SsdpTarget } from './ssdp-announcer.js';

const SERIAL = /^[0-9A-Z]{15}$/;
const ACCESS_CODE = /^[0-9A-Za-z]{8}$/;

export interface PrinterSpec {
  /** 15 upper-case letters and digits, e.g. 01P00A123456789. */
  serial: string;
  /** 8 letters or digits, as the printer screen shows. */
  accessCode: string;
  model?: ModelName;
  /** The printer's MQTT port (8883 on a real printer); 0 or absent picks a free one. */
  mqttPort?: number;
  /** The printer's implicit-FTPS port (990 on a real printer); 0 or absent picks a free one. */
  ftpsPort?: number;
  ams?: AmsOptions;
  faults?: readonly FaultName[];
  /** `DevName.bambu.com` of its announcements (the name set in the app); `<model>-<last 3 of the serial>` by default. */
  name?: string;
}

export interface FarmOptions {
  printers: readonly PrinterSpec[];
  /** Working folder; a fresh temp folder (removed on stop) when absent. */
  dir?: string;
  /** Address the printers listen on. */
  bindHost?: string;
  /** Printer seconds per real second. */
  timeScale?: number;
  pushIntervalMs?: number;
  /**
   * Spreads the printers' report clocks evenly over one push interval, as real printers are not
   * in step; off, every printer reports at the same instant.
   */
  staggerPushes?: boolean;
  /** Printer seconds in PREPARE before a print runs. */
  prepareSeconds?: number;
  /** Share of publishes lost under `dropPublishes`. */
  dropRatio?: number;
  /** Where the printers send their SSDP announcements (ssdp-announcer.ts); none when absent. */
  ssdp?: SsdpTarget;
  /** The address announced as theirs (Location); the bind host, 127.0.0.1 for 0.0.0.0. */
  announceHost?: string;
  log: Logger;
}

export interface FarmPrinter {
  serial: string;
  /** The code a client should use (the broker accepts another one under `wrongAccessCode`). */
  accessCode: string;
  model: ModelName;
  mqttPort: number;
  ftpsPort: number;
  sdDir: string;
  printer: VirtualBambuPrinter;
}

export interface VirtualBambuFarm {
  host: string;
  dir: string;
  caPem: string;
  caPath: string;
  printers: readonly FarmPrinter[];
  printer(serial: string): FarmPrinter;
  setFault(serial: string, name: FaultName, on: boolean): Promise<void>;
  /** Stops mosquitto and starts it again on the same ports and certificates. */
  restartBroker(): Promise<void>;
  stop(): Promise<void>;
}

/** Throws with a message naming the printer and the field when a spec cannot be run. */
export function checkPrinterSpecs(printers: readonly PrinterSpec[]): void {
  if (printers.length === 0) throw new Error('a farm needs at least one printer');
  const seen = new Set<string>();
  for (const p of printers) {
    if (!SERIAL.test(p.serial)) throw new Error(`serial ${JSON.stringify(p.serial)}: expected 15 upper-case letters and digits`);
    if (seen.has(p.serial)) throw new Error(`serial ${p.serial} is used twice`);
    seen.add(p.serial);
    if (!ACCESS_CODE.test(p.accessCode)) throw new Error(`access code of ${p.serial}: expected 8 letters or digits`);
    if (p.model !== undefined && !isModelName(p.model)) throw new Error(`model of ${p.serial}: expected one of ${Object.keys(MODELS).join(', ')}`);
    for (const port of [p.mqttPort, p.ftpsPort]) {
      if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
        throw new Error(`port ${port} of ${p.serial} is not a TCP port`);
    }
  }
}

function checkOptions(options: FarmOptions): void {
  checkPrinterSpecs(options.printers);
  if (!((options.timeScale ?? 1) > 0)) throw new Error('the time scale must be above 0');
  if (!((options.pushIntervalMs ?? 1000) >= 10)) throw new Error('the push interval must be at least 10 ms');
}

export async function startVirtualBambuFarm(options: FarmOptions): Promise<VirtualBambuFarm> {
  checkOptions(options);
  const host = options.bindHost ?? '127.0.0.1';
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'printyard-virtual-bambu-'));
  const certDir = path.join(dir, 'certs');
  const brokerDir = path.join(dir, 'broker');
  mkdirSync(certDir, { recursive: true });
  mkdirSync(brokerDir, { recursive: true });
  const log = options.log;
  const ftpsServers: FtpsServer[] = [];
  const printers: FarmPrinter[] = [];
  let broker: MosquittoBroker | null = null;
  let announcer: SsdpAnnouncer | null = null;

  const stop = async (): Promise<void> => {
    await announcer?.stop();
    await Promise.all(printers.map((p) => p.printer.stop()));
    await Promise.all(ftpsServers.map((s) => s.close()));
    await broker?.stop();
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const ca = await createCertificateAuthority(certDir);
    const certs = await Promise.all(options.printers.map((spec) => issuePrinterCertificate(ca, spec.serial, certDir)));
    // mosquitto needs its ports before it starts; the FTPS servers take theirs once it holds them.
    const wanted = options.printers.filter((spec) => !spec.mqttPort).length;
    const [internalPort, ...spare] = await freePorts(host === '0.0.0.0' ? '127.0.0.1' : host, wanted + 1);
    const listeners: PrinterListener[] = [];
    const internalUsers: InternalUser[] = [];
    const pending: Array<{ spec: PrinterSpec; printer: VirtualBambuPrinter; sd: SdCard; sdDir: string; mqttPort: number; accepted: () => string }> =
      [];
    options.printers.forEach((spec, index) => {
      const cert = certs[index];
      const sdDir = path.join(dir, 'sd', spec.serial);
      const sd = new SdCard(sdDir);
      const user: InternalUser = { serial: spec.serial, name: internalUserName(spec.serial), password: randomBytes(16).toString('hex') };
      internalUsers.push(user);
      const printer = new VirtualBambuPrinter({
        serial: spec.serial,
        accessCode: spec.accessCode,
        model: spec.model ?? 'P1S',
        sd,
        broker: { host: '127.0.0.1', port: internalPort, username: user.name, password: user.password },
        timeScale: options.timeScale ?? 1,
        pushIntervalMs: options.pushIntervalMs ?? 1000,
        pushOffsetMs: options.staggerPushes ? ((options.pushIntervalMs ?? 1000) * index) / options.printers.length : 0,
        prepareSeconds: options.prepareSeconds ?? 5,
        dropRatio: options.dropRatio ?? 0.5,
        ams: spec.ams,
        log,
      });
      for (const fault of spec.faults ?? []) printer.setFault(fault, true);
      const accepted = () => (printer.hasFault('wrongAccessCode') ? otherAccessCode(spec.accessCode) : spec.accessCode);
      const mqttPort = spec.mqttPort || (spare.shift() as number);
      listeners.push({ serial: spec.serial, port: mqttPort, accessCode: accepted(), certPath: cert.certPath, keyPath: cert.keyPath });
      pending.push({ spec, printer, sd, sdDir, mqttPort, accepted });
    });
    broker = new MosquittoBroker({ dir: brokerDir, bindHost: host, internalPort, runAs: os.userInfo().username, listeners, internalUsers }, log);
    await broker.start();
    for (const [index, { spec, printer, sd, sdDir, mqttPort, accepted }] of pending.entries()) {
      const ftps = new FtpsServer({
        host,
        port: spec.ftpsPort ?? 0,
        key: certs[index].keyPem,
        cert: certs[index].certPem,
        sd,
        accessCode: accepted,
        log,
        onStored: (file) => log.info('file stored on the SD card', { serial: spec.serial, file }),
      });
      ftpsServers.push(ftps);
      const ftpsPort = await ftps.listen();
      printers.push({ serial: spec.serial, accessCode: spec.accessCode, model: spec.model ?? 'P1S', mqttPort, ftpsPort, sdDir, printer });
    }
    await Promise.all(printers.map((p) => p.printer.start()));
    if (options.ssdp) {
      const location = options.announceHost ?? (host === '0.0.0.0' ? '127.0.0.1' : host);
      announcer = new SsdpAnnouncer(
        options.ssdp,
        options.printers.map((spec) => {
          const model = MODELS[spec.model ?? 'P1S'];
          const firmware = model.modules.find((m) => m.name === 'ota')?.sw_ver ?? '';
          return {
            serial: spec.serial,
            host: location,
            modelCode: model.ssdpModel,
            name: spec.name ?? `${model.name}-${spec.serial.slice(-3)}`,
            firmware,
          };
        }),
        log,
      );
      await announcer.start();
    }
    const running = broker;
    const byserial = new Map(printers.map((p) => [p.serial, p]));
    const find = (serial: string): FarmPrinter => {
      const p = byserial.get(serial);
      if (!p) throw new Error(`no virtual printer ${serial}`);
      return p;
    };
    return {
      host,
      dir,
      caPem: ca.pem,
      caPath: ca.certPath,
      printers,
      printer: find,
      async setFault(serial, name, on) {
        const p = find(serial);
        if (name === 'wrongAccessCode') await running.setAccessCode(serial, on ? otherAccessCode(p.accessCode) : p.accessCode);
        p.printer.setFault(name, on);
      },
      restartBroker: () => running.restart(),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
