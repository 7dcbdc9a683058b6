#!/usr/bin/env node
/**
 * Runs virtual Bambu Lab printers for demos and manual tests:
 *
 *   node dist/scripts/simulators/bambu/main.js --serial 01P00A123456789 --access-code 12345678 \
 *     --model P1S --mqtt-port 8883 --ftps-port 990 --time-scale 20
 *
 * prints where to connect (host, ports, serial, access code, CA file), then reads commands on
 * stdin: `fault <name> on|off [serial]`, `restart-broker`, `status`, `help`.
 * Exit status: 0 after SIGINT/SIGTERM, 2 for invalid options, 1 when it cannot start.
 */
import readline from 'node:readline';
import { configUsage } from '../../../appliance/common/config.js';
import { toAppError } from '../../../appliance/common/errors.js';
import { createLogger, type Logger } from '../../../appliance/common/logger.js';
import { type CliOptions, ENV_PREFIX, loadCliOptions, OPTIONS, parseSsdpTarget, printerSpecs } from './cli-options.js';
import type { SsdpTarget } from './ssdp-announcer.js';
import { type PrinterSpec, startVirtualBambuFarm, type VirtualBambuFarm } from './farm.js';
import { FAULT_NAMES, isFaultName } from './faults.js';
import { waitForStopSignal } from '../../../appliance/common/stop-signal.js';

const NAME = 'printyard-virtual-bambu';

const CONSOLE_HELP = `commands:
  fault <${FAULT_NAMES.join('|')}> on|off [serial]   (all printers when no serial)
  restart-broker                                      stop and start the MQTT broker
  status                                              state of each printer
  help`;

function usage(): string {
  return `Usage: ${NAME} [options]

Virtual Bambu Lab printers: MQTT over TLS (mosquitto), implicit FTPS, prints from uploaded files.

Options (also read from ${ENV_PREFIX}* environment variables):
${configUsage(OPTIONS, { names: 'flags', more: [['--help', 'this help']] })}`;
}

function describe(farm: VirtualBambuFarm): string {
  const lines = ['Virtual Bambu Lab printers ready', `  host         ${farm.host}`, `  CA           ${farm.caPath}`];
  for (const p of farm.printers) {
    lines.push(
      `  ${p.serial} (${p.model})`,
      `    access code  ${p.accessCode}`,
      `    mqtt         mqtts://${farm.host}:${p.mqttPort}  user bblp, TLS server name ${p.serial}`,
      `    ftps         ftps://${farm.host}:${p.ftpsPort}  implicit TLS, user bblp`,
      `    sd card      ${p.sdDir}`,
    );
  }
  return `${lines.join('\n')}\n\n${CONSOLE_HELP}\n`;
}

function asJson(farm: VirtualBambuFarm): string {
  return `${JSON.stringify({
    host: farm.host,
    caPath: farm.caPath,
    printers: farm.printers.map((p) => ({
      serial: p.serial,
      model: p.model,
      accessCode: p.accessCode,
      mqttPort: p.mqttPort,
      ftpsPort: p.ftpsPort,
      sdDir: p.sdDir,
    })),
  })}\n`;
}

async function runCommand(farm: VirtualBambuFarm, line: string, log: Logger): Promise<void> {
  const [verb, ...args] = line.trim().split(/\s+/);
  if (verb === '' || verb === undefined) return;
  if (verb === 'help') {
    process.stdout.write(`${CONSOLE_HELP}\n`);
  } else if (verb === 'status') {
    for (const p of farm.printers) {
      const r = p.printer.report();
      process.stdout.write(
        `${p.serial} ${r.gcode_state} ${r.mc_percent}% layer ${r.layer_num}/${r.total_layer_num} ` +
          `nozzle ${r.nozzle_temper}/${r.nozzle_target_temper} bed ${r.bed_temper}/${r.bed_target_temper} ` +
          `faults [${p.printer.activeFaults().join(',')}]\n`,
      );
    }
  } else if (verb === 'restart-broker') {
    await farm.restartBroker();
    log.info('broker restarted');
  } else if (verb === 'fault' && args.length >= 2 && isFaultName(args[0]) && (args[1] === 'on' || args[1] === 'off')) {
    const targets = args[2] ? [farm.printer(args[2])] : farm.printers;
    for (const p of targets) await farm.setFault(p.serial, args[0], args[1] === 'on');
  } else {
    process.stdout.write(`unknown command: ${line.trim()}\n${CONSOLE_HELP}\n`);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  let options: CliOptions;
  let specs: PrinterSpec[];
  let ssdp: SsdpTarget | null;
  try {
    options = loadCliOptions(argv, process.env);
    specs = printerSpecs(options);
    ssdp = parseSsdpTarget(options);
  } catch (err) {
    process.stderr.write(`${NAME}: ${toAppError(err).message}\nRun ${NAME} --help for the options.\n`);
    return 2;
  }
  const log = createLogger({ name: NAME, level: options.log_level });
  // Listening first: a signal that arrives while starting (or just after the output) must stop us cleanly.
  const signal = waitForStopSignal();
  let farm: VirtualBambuFarm;
  try {
    farm = await startVirtualBambuFarm({
      printers: specs,
      dir: options.dir || undefined,
      bindHost: options.bind,
      timeScale: options.time_scale,
      pushIntervalMs: options.push_interval_ms,
      staggerPushes: options.stagger,
      prepareSeconds: options.prepare_seconds,
      ...(ssdp ? { ssdp } : {}),
      ...(options.announce_host ? { announceHost: options.announce_host } : {}),
      log,
    });
  } catch (err) {
    log.error(`cannot start: ${(err as Error).message}`);
    return 1;
  }
  process.stdout.write(options.json ? asJson(farm) : describe(farm));
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  input.on('line', (line) => {
    runCommand(farm, line, log).catch((err: Error) => log.error(`command failed: ${err.message}`));
  });
  const received = await signal;
  input.close();
  log.info(`${received}: stopping`);
  await farm.stop();
  return 0;
}

process.exit(await main(process.argv.slice(2)));
