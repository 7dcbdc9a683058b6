#!/usr/bin/env node
/**
 * The virtual Marlin printer as a program, for demos and manual tests:
 *   node dist/scripts/simulators/marlin/main.js --link /tmp/marlin0 [--faults resend=0.05] [--speed 10]
 * The first line on stdout is the serial port a host should open; logs go to stderr; stdin takes
 * console commands (`help`). SIGINT/SIGTERM stop it. Exit status: 0 after a stop, 2 for invalid
 * options, 1 when it cannot start.
 */
import { createInterface } from 'node:readline';
import { configUsage } from '../../../appliance/common/config.js';
import { toAppError } from '../../../appliance/common/errors.js';
import { createLogger } from '../../../appliance/common/logger.js';
import { CONSOLE_HELP, runConsoleCommand } from './console-commands.js';
import { formatFaults } from './faults.js';
import { type CliOptions, loadOptions, OPTIONS, simulatorOptions } from './options.js';
import { VirtualMarlin, type VirtualMarlinOptions } from './virtual-marlin.js';
import { waitForStopSignal } from '../../../appliance/common/stop-signal.js';

const NAME = 'virtual-marlin';

function usage(): string {
  return `Usage: ${NAME} --link <folder> [options]

A virtual Marlin 2.1 printer on a pty pair (needs socat). Prints the port to open, then runs
until stopped.

Options:
${configUsage(OPTIONS, { names: 'flags', more: [['--help', 'this help']] })}

${CONSOLE_HELP}`;
}

function startConsole(printer: VirtualMarlin, log: (text: string) => void): void {
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    runConsoleCommand(printer, line)
      .then((text) => {
        if (text !== '') process.stdout.write(`${text}\n`);
      })
      .catch((err: Error) => log(err.message));
  });
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  let options: CliOptions;
  let simulator: VirtualMarlinOptions;
  try {
    options = loadOptions(argv, process.env);
    simulator = simulatorOptions(options);
  } catch (err) {
    process.stderr.write(`${NAME}: ${toAppError(err).message}\nRun ${NAME} --help for the options.\n`);
    return 2;
  }
  const log = createLogger({ name: NAME, level: options.log_level });
  const signal = waitForStopSignal();
  let printer: VirtualMarlin;
  try {
    printer = await VirtualMarlin.start({ ...simulator, log });
  } catch (err) {
    log.error(`cannot start: ${toAppError(err).message}`);
    return 1;
  }
  printer.on('error', (err) => log.error(err.message));
  process.stdout.write(`${printer.hostPath}\n`);
  log.info('ready', {
    host: printer.hostPath,
    speed: options.speed,
    faults: formatFaults(printer.faultRates),
    sd_files: printer.state().sd.files.length,
  });
  startConsole(printer, (text) => log.warn(text));
  const received = await signal;
  log.info(`stopping on ${received}`);
  await printer.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${NAME}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
