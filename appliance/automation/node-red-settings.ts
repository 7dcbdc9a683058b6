/**
 * Node-RED's settings for the box: files under the state directory, our node package, the
 * dashboard's sign-in, Node-RED's log through ours, and nothing that reaches out of the box
 * (no palette installs, no update check, no tours).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger, LogLevel } from '../common/logger.js';
import { dashboardAdminAuth } from './admin-auth.js';

export interface SettingsInput {
  userDir: string;
  /** The folder of our node package (appliance/node-red-printyard). */
  nodesDir: string;
  dashboardUrl: string;
  log: Logger;
}

/** Node-RED's numeric levels (fatal 10 … trace 60, audit 98, metric 99) as ours. */
function levelOf(level: number): LogLevel | null {
  if (level <= 20) return 'error';
  if (level <= 30) return 'warn';
  if (level <= 40) return 'info';
  if (level <= 50) return 'debug';
  return null;
}

interface NodeRedLogMessage {
  level: number;
  msg: unknown;
  type?: string;
  name?: string;
}

/**
 * The key Node-RED encrypts the flows' credentials (API keys) with, made once and kept beside
 * them (mode 0600). Without it Node-RED makes one too, but warns at every start.
 */
function credentialSecret(userDir: string): string {
  const file = path.join(userDir, 'credential-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

export function nodeRedSettings(input: SettingsInput): Record<string, unknown> {
  const { userDir, log } = input;
  mkdirSync(userDir, { recursive: true, mode: 0o700 });
  const toOurLog = () => (message: NodeRedLogMessage) => {
    const level = levelOf(message.level);
    if (level === null) return;
    const text = (typeof message.msg === 'string' ? message.msg : JSON.stringify(message.msg)).trim();
    log[level](message.type && message.name ? `[${message.type}:${message.name}] ${text}` : text);
  };
  return {
    userDir,
    flowFile: 'flows.json',
    flowFilePretty: true,
    credentialSecret: credentialSecret(userDir),
    nodesDir: [input.nodesDir],
    httpAdminRoot: '/',
    httpNodeRoot: '/',
    adminAuth: dashboardAdminAuth({ dashboardUrl: input.dashboardUrl, log }),
    // The queue holds the flows make are remembered across restarts (see node-red-printyard/lib/holds.js).
    contextStorage: { default: { module: 'localfilesystem' } },
    // Read by our config node as the default dashboard URL.
    printyard: { dashboardUrl: input.dashboardUrl },
    logging: {
      printyard: { level: 'debug', metrics: false, audit: false, handler: toOurLog },
    },
    externalModules: { autoInstall: false, palette: { allowInstall: false, allowUpload: false }, modules: { allowInstall: false } },
    telemetry: { enabled: false },
    diagnostics: { enabled: true, ui: false },
    editorTheme: {
      tours: false,
      projects: { enabled: false },
      palette: { catalogues: [] },
      page: { title: 'Printyard automation' },
      header: { title: 'Printyard automation' },
    },
  };
}
