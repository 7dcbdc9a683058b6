/**
 * The keys of `<data-dir>/config.json` (schema format: common/config.ts), and the checks that
 * turn the file's content, the environment or an API patch into DashboardSettings. Every error
 * names the key as the user wrote it: `config.json: rate_limit.per_minute must be an integer from
 * 1 to 100000`, `PRINTYARD_DASHBOARD_RATE_LIMIT_PER_MINUTE: expected an integer from 1 to 100000,
 * got "x"`.
 *
 * The environment overrides the file, by the rule of both services (`PRINTYARD_DASHBOARD_` and
 * the key's path), except where the spec names another variable: the slicer service's url and
 * token come from SLICER_URL and SLICER_TOKEN, and its `enabled` switch has none (it is set in
 * the file or the UI). Every key is applied at once (features read `settings.current` when they
 * use it, the rate limiter follows `onChange`); only the GPIO chip's keys are flagged `x-restart`
 * (the chip is opened once, at start).
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import {
  configUsage,
  defaultValues,
  documentIssues,
  environmentValues,
  expectation,
  JSON_SCHEMA_DIALECT,
  overlayValues,
  redactConfig,
  type ConfigSchema,
  type DocumentIssue,
} from '../../common/config.js';
import { NAME_FORMAT } from '../../common/names.js';
import type { DashboardSettings, SettingsPatch } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;

export const SETTINGS_SCHEMA = {
  $schema: JSON_SCHEMA_DIALECT,
  type: 'object',
  'x-env-prefix': 'PRINTYARD_DASHBOARD_',
  additionalProperties: false,
  properties: {
    box: {
      type: 'object',
      description: 'the box itself',
      additionalProperties: false,
      properties: {
        name: {
          type: 'string',
          format: NAME_FORMAT,
          minLength: 1,
          maxLength: 40,
          default: 'Printyard',
          description: 'the name people know the box by: shown in the web UI and announced on the network',
        },
      },
    },
    mdns: {
      type: 'object',
      description: 'announcing the box on the local network (mDNS / DNS-SD, "Bonjour")',
      additionalProperties: false,
      properties: {
        enabled: {
          type: 'boolean',
          default: true,
          description:
            'announce the web UI (_http._tcp) and, when it runs on this box, the slicer service (_pyard-slicer._tcp) on the LAN, ' +
            'and list the slicer services of other boxes',
        },
      },
    },
    auth: {
      type: 'object',
      description: 'sessions of the web UI and the API',
      additionalProperties: false,
      properties: {
        token_expiry: {
          type: 'string',
          format: 'short-duration',
          default: '24h',
          description: 'lifetime of a session token: a number and a unit (s, m, h, d, w), e.g. 24h',
        },
      },
    },
    rate_limit: {
      type: 'object',
      description: 'how many requests a client may make',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean', default: true, description: 'limit the requests per client' },
        per_minute: { type: 'integer', minimum: 1, maximum: 100_000, default: 200, description: 'requests per client in any minute' },
        per_second: { type: 'integer', minimum: 1, maximum: 100_000, default: 20, description: 'requests per client in any second (the burst)' },
      },
    },
    slicer_service: {
      type: 'object',
      description: 'the remote slicer service (printyard-slicer)',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean', default: false, 'x-env': false, description: 'use the remote slicer service' },
        url: {
          type: 'string',
          format: 'http-url',
          default: 'http://127.0.0.1:8765',
          'x-env': 'SLICER_URL',
          description: 'base URL of the slicer service',
        },
        token: {
          type: 'string',
          default: '',
          'x-env': 'SLICER_TOKEN',
          'x-secret': true,
          description: 'bearer token of the slicer service; empty for none',
        },
      },
    },
    inventory: {
      type: 'object',
      description: 'spools, the Spoolman-compatible API and the prices of the cost estimate',
      additionalProperties: false,
      properties: {
        low_stock_g: {
          type: 'number',
          minimum: 0,
          maximum: 100_000,
          default: 100,
          description: 'a spool with this many grams left or fewer is listed as running low',
        },
        spoolman_open_lan: {
          type: 'boolean',
          default: false,
          description: 'let clients on the local network use /api/v1 (Spoolman) without credentials, as Moonraker does; deletes still need admin',
        },
        currency: { type: 'string', default: 'EUR', description: 'currency of spool prices and of every cost estimate (a label, not converted)' },
        electricity_price_kwh: { type: 'number', minimum: 0, maximum: 100, default: 0.3, description: 'price of one kWh of electricity' },
        printer_watts: {
          type: 'number',
          minimum: 0,
          maximum: 100_000,
          default: 150,
          description: 'average power of a printer while it prints, in W (a printer of its own is set under /api/inventory/printer-watts)',
        },
        machine_hour_rate: {
          type: 'number',
          minimum: 0,
          maximum: 100_000,
          default: 0,
          description: 'price of one hour of printer time (wear, depreciation); 0 for none',
        },
      },
    },
    slicing: {
      type: 'object',
      description: 'slices by the built-in engine',
      additionalProperties: false,
      properties: {
        max_output_mb: {
          type: 'integer',
          minimum: 1,
          maximum: 1_048_576,
          default: 1024,
          description: 'largest G-code file of a slice by the built-in engine, in MB; a slice that would write more fails',
        },
        min_free_mb: {
          type: 'integer',
          minimum: 0,
          maximum: 1_048_576,
          default: 256,
          description: 'free space in MB a slice leaves on the disk of the data directory; below it the slice fails (507)',
        },
      },
    },
    dashboard: {
      type: 'object',
      description: 'how the dashboard is reached from outside',
      additionalProperties: false,
      properties: {
        public_url: {
          type: 'string',
          default: '',
          description:
            'base URL of the web UI as people reach it (http or https), used in spool QR codes and labels; empty: the host the request came to',
        },
      },
    },
    automation: {
      type: 'object',
      description: 'the automation service (Node-RED) that runs beside the dashboard',
      additionalProperties: false,
      properties: {
        node_red_url: {
          type: 'string',
          default: '',
          description:
            "the Node-RED editor's address as browsers reach it (http or https), linked from the settings page for admins; " +
            "empty: the host the browser reached the dashboard by, port 1880 (the launcher's default)",
        },
      },
    },
    queue: {
      type: 'object',
      description: 'the print queue and its dispatcher',
      additionalProperties: false,
      properties: {
        dispatch_attempts: {
          type: 'integer',
          minimum: 1,
          maximum: 10,
          default: 3,
          description: 'upload-and-start attempts of one dispatch before the copy fails',
        },
        retry_delay_ms: {
          type: 'integer',
          minimum: 10,
          maximum: 60_000,
          default: 5000,
          description: 'delay before the second attempt of a dispatch in ms; it doubles for each further one, at most 60000',
        },
        round_interval_s: {
          type: 'integer',
          minimum: 1,
          maximum: 3600,
          default: 15,
          description: 'seconds between dispatch rounds when nothing else starts one',
        },
      },
    },
    gpio: {
      type: 'object',
      description: 'the GPIO pins of the box (which pin does what: gpio.json, /api/hardware/gpio/config)',
      additionalProperties: false,
      properties: {
        type: {
          type: 'string',
          enum: ['onoff', 'simulated'],
          default: 'onoff',
          'x-restart': true,
          description: 'onoff: the sysfs GPIO of a Raspberry Pi; simulated: pins in memory, to try the roles without hardware',
        },
        sysfs_root: {
          type: 'string',
          minLength: 1,
          default: '/sys/class/gpio',
          'x-restart': true,
          description: 'where the GPIO chips are looked up (their base numbers and labels)',
        },
        chip_label: {
          type: 'string',
          default: '',
          'x-restart': true,
          description: 'label of the chip of the header pins; empty: the Raspberry Pi chips (pinctrl-rp1, pinctrl-bcm2711, pinctrl-bcm2835)',
        },
      },
    },
    model_provider: {
      type: 'object',
      description:
        'a remote text-to-3D service behind the model generation jobs (generator `remote-text`); off by default: the box ' +
        'generates its own models offline and contacts no provider unless one is enabled here',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean', default: false, description: 'offer the provider as a generator (it also needs an API key)' },
        kind: { type: 'string', enum: ['meshy'], default: 'meshy', description: "the provider's API: meshy (Meshy's text-to-3D v2)" },
        url: { type: 'string', format: 'http-url', default: 'https://api.meshy.ai', description: 'base URL of the provider API' },
        api_key: { type: 'string', default: '', 'x-secret': true, description: 'API key at the provider, sent as a bearer token' },
        timeout_s: {
          type: 'integer',
          minimum: 1,
          maximum: 3600,
          default: 900,
          description: 'seconds a job waits for the provider (creating the task, its generation, the download) before it fails',
        },
        poll_interval_s: {
          type: 'number',
          minimum: 0.1,
          maximum: 60,
          default: 5,
          description: 'seconds between two reads of the state of a task at the provider',
        },
      },
    },
    mqtt: {
      type: 'object',
      description:
        'the fleet on an MQTT broker with Home Assistant discovery (mqtt-export/). Whoever can publish to the broker can press ' +
        'the pause, resume and stop buttons: off by default, and the buttons can be turned off',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean', default: false, description: 'publish the printers to the broker' },
        url: {
          type: 'string',
          format: 'mqtt-url',
          default: 'mqtt://127.0.0.1:1883',
          description: 'the broker: mqtt://host:port, or mqtts://host:port for TLS',
        },
        username: { type: 'string', default: '', description: 'user name at the broker; empty for none' },
        password: { type: 'string', default: '', 'x-secret': true, description: 'password at the broker; empty for none' },
        base_topic: {
          type: 'string',
          format: 'mqtt-topic',
          default: 'printyard',
          description: 'topics of the states, commands and availability start with this',
        },
        discovery_prefix: {
          type: 'string',
          format: 'mqtt-topic',
          default: 'homeassistant',
          description: "Home Assistant's MQTT discovery prefix",
        },
        retain: { type: 'boolean', default: true, description: 'publish the states retained (discovery configs and availability always are)' },
        buttons: { type: 'boolean', default: true, description: 'offer pause, resume and stop as buttons and act on their commands' },
        command_role: {
          type: 'string',
          enum: ['view', 'print', 'admin'],
          default: 'print',
          description: 'the role a command from the broker acts as, as an API key of that role would (pause/resume/stop need print)',
        },
        min_interval_ms: {
          type: 'integer',
          minimum: 0,
          maximum: 60_000,
          default: 1000,
          description: "a printer's state is published on change, at most once in this many milliseconds",
        },
      },
    },
  },
} as const satisfies ConfigSchema;

export const CONFIG_FILE = 'config.json';

function settingsError(message: string, details?: unknown): AppError {
  return new AppError(ErrorCode.validation, 400, message, details);
}

export function defaultSettings(): DashboardSettings {
  return defaultValues(SETTINGS_SCHEMA);
}

/** What is wrong with a key or section, worded for the API and the log: `must be an integer from 1 to 100000`. */
function problem(issue: DocumentIssue): string {
  switch (issue.kind) {
    case 'unknown': {
      const what = issue.name.includes('.') ? 'a setting' : 'a settings section';
      return `is not ${what} (known: ${issue.known.join(', ')})`;
    }
    case 'not-an-object':
      return 'must be an object';
    case 'not-in-file':
      return 'cannot be set in config.json';
    case 'invalid':
      return `must be ${expectation(issue.spec)}`;
  }
}

/**
 * Checks a nested object of settings (the file's content, or a patch) and returns its values
 * merged over `base`. Unknown sections and keys are errors, as are values of the wrong type.
 * `where` prefixes the messages: `config.json: ` or `` for the API.
 */
export function mergeChecked(base: DashboardSettings, input: unknown, where: string): DashboardSettings {
  const issues = documentIssues(SETTINGS_SCHEMA, input);
  if (issues.length === 0) return overlayValues(SETTINGS_SCHEMA, base, input);
  if (issues[0].kind === 'not-an-object' && issues[0].name === '') throw settingsError(`${where}expected a JSON object of settings sections`);
  const listed = issues.map((issue) => ({ path: issue.name, message: problem(issue) }));
  throw settingsError(listed.map((i) => `${where}${i.path} ${i.message}`).join('; '), listed);
}

/** The values the environment sets, checked; the error names the variable. */
export function environmentOverrides(env: Env): SettingsPatch {
  return environmentValues(SETTINGS_SCHEMA, env);
}

/** `base` with the patch's keys replaced (the patch must already be checked). */
export function applyPatch(base: DashboardSettings, patch: SettingsPatch): DashboardSettings {
  return overlayValues(SETTINGS_SCHEMA, base, patch);
}

/** The settings as they may be logged or shown: secrets only as set or not. */
export function redactSettings(settings: DashboardSettings): DashboardSettings {
  return redactConfig(SETTINGS_SCHEMA, settings);
}

/** Every key with its default and variable, for --help. */
export function settingsUsage(): string {
  return configUsage(SETTINGS_SCHEMA, { names: 'keys' });
}
