/**
 * The start-up both services share; their main.ts give only what is their own. --help and
 * --version; the options (an invalid one: exit 2, naming it); the logger; the start (an invalid
 * configuration found then, e.g. the dashboard's config.json: exit 2; any other failure, e.g. a
 * taken port: exit 1); and the stop. The first SIGTERM or SIGINT stops the service gracefully and
 * the process exits 0. A second Ctrl-C (SIGINT) hurries the stop where the service can; repeated
 * SIGTERMs never do: a terminal's Ctrl-C reaches both a supervisor (npm start) and the service,
 * and the supervisor's SIGTERM must not cut a grace period short. Under systemd (Type=notify) it
 * says READY once the service listens, pings the watchdog and says STOPPING (hardware/sd-notify).
 */
import { createServiceNotifier } from '../hardware/sd-notify/notifier.js';
import { CONFIG_ERROR, configUsage, redactConfig, type ConfigSchema } from './config.js';
import { toAppError } from './errors.js';
import { createLogger, type LogFields, type Logger, type LogLevel } from './logger.js';
import { waitForStopSignal } from './stop-signal.js';
import { packageVersion } from './version.js';

type Env = Readonly<Record<string, string | undefined>>;
/** What service-main reads of the options: the level of the log. */
type Options = { log_level: LogLevel };

/** A started service, as its stop needs it. */
export interface RunningService {
  readonly url: string;
  /** Graceful; resolves once everything is closed. */
  stop(): Promise<void>;
}

export interface ServiceDefinition<O extends Options, S extends RunningService> {
  /** The executable: `printyard-slicer`. */
  name: string;
  /** What the service is, one line for --help. */
  summary: string;
  /** The options' schema (common/config.ts): --help lists it, the log shows the values (secrets masked). */
  schema: ConfigSchema;
  /** The file the options are also read from, for --help: `<config-dir>/slicer.json`. */
  optionsFile?: string;
  /** The defaults that depend on the environment (folders), as loadOptions uses them. */
  folderDefaults(env: Env): Record<string, unknown>;
  /** --help text after the options. */
  moreHelp?(): string;
  loadOptions(argv: readonly string[], env: Env): O;
  /**
   * Starts the service; anything it logs or sets up around the start is its own. `host.systemd`:
   * systemd supervises this process (it passed a notify socket, which the notifier has taken out of
   * the environment so that child processes cannot speak for the service).
   */
  start(options: O, log: Logger, host: { systemd: boolean }): Promise<S>;
  /** Fields of the log line that says where it listens: its folders. */
  startedFields(options: O): LogFields;
  /** The STATUS line systemd shows, asked for again now and then: `listening on …, 12 printers`. */
  status?(service: S): string;
  /** A second Ctrl-C while stopping; without this it is only logged. */
  onSecondInterrupt?(service: S, log: Logger): void;
}

function usage<O extends Options, S extends RunningService>(service: ServiceDefinition<O, S>): string {
  const sources = `${service.schema['x-env-prefix']}* environment variables${service.optionsFile ? ` and ${service.optionsFile}` : ''}`;
  const options = configUsage(service.schema, {
    names: 'flags',
    defaults: service.folderDefaults(process.env),
    more: [
      ['--help', 'this help'],
      ['--version', 'print the version'],
    ],
  });
  const more = service.moreHelp ? `\n\n${service.moreHelp()}` : '';
  return `Usage: ${service.name} [options]\n\n${service.summary}\n\nOptions (also read from ${sources}):\n${options}${more}`;
}

async function main<O extends Options, S extends RunningService>(service: ServiceDefinition<O, S>, argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage(service)}\n`);
    return 0;
  }
  if (argv.includes('--version')) {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  let options: O;
  try {
    options = service.loadOptions(argv, process.env);
  } catch (err) {
    process.stderr.write(`${service.name}: ${toAppError(err).message}\nRun ${service.name} --help for the options.\n`);
    return 2;
  }
  const log = createLogger({ name: service.name, level: options.log_level });
  // A library promise nobody awaits must not take the service (and the work in it) down.
  process.on('unhandledRejection', (reason) => {
    log.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  });
  log.debug('options', Object.fromEntries(Object.entries(redactConfig(service.schema, options)).map(([k, v]) => [k, String(v)])));

  const signal = waitForStopSignal();
  const notifier = createServiceNotifier(process.env, log.child('systemd'));
  let running: S;
  try {
    running = await service.start(options, log, { systemd: notifier.socket !== null });
  } catch (err) {
    const error = toAppError(err);
    log.error(`cannot start: ${error.message}`);
    return error.code === CONFIG_ERROR ? 2 : 1;
  }
  log.info(`${service.name} ${packageVersion()} listening on ${running.url}`, service.startedFields(options));
  const started = running;
  notifier.ready(() => service.status?.(started) ?? `listening on ${started.url}`);

  const stopSignal = await signal;
  log.info(`${stopSignal}: stopping`);
  notifier.stopping(`stopping (${stopSignal})`);
  process.on('SIGTERM', () => log.info('SIGTERM: already stopping'));
  const { onSecondInterrupt } = service;
  if (onSecondInterrupt) process.once('SIGINT', () => onSecondInterrupt(running, log));
  else process.on('SIGINT', () => log.info('SIGINT: already stopping'));
  await running.stop();
  await notifier.close();
  log.info('stopped');
  return 0;
}

/** Runs the service until it is stopped, then ends the process with main's exit status. */
export async function runService<O extends Options, S extends RunningService>(service: ServiceDefinition<O, S>): Promise<never> {
  // Nothing left behind (a slow client's connection, a stray timer) may keep a stopped service alive.
  process.exit(await main(service, process.argv.slice(2)));
}
