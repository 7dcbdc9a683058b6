/**
 * A dashboard for the slicer-service tests: the same features the executable has for slicing
 * (notifications, printers, the WebSocket, the built-in engine, the bridge, the slicer service),
 * the test authenticator (TEST_TOKENS), config.json pointing at a slicer service, and printers
 * driven by a test driver that accepts files (until the real drivers are wired into these tests).
 */
import { readFileSync } from 'node:fs';
import { AppError, ErrorCode } from '../../../../appliance/common/errors.js';
import type {
  CommandResult,
  DriverCapabilities,
  DriverContext,
  PrinterDriver,
  StartOptions,
  UploadSource,
} from '../../../../appliance/dashboard/printers/driver.js';
import type { PrinterRecord } from '../../../../appliance/dashboard/printers/printer.js';
import { DriverRegistry } from '../../../../appliance/dashboard/printers/driver-registry.js';
import type { PrinterStatus } from '../../../../appliance/dashboard/printers/status.js';
import type { BridgeOptions } from '../../../../appliance/dashboard/slicing/bridge/desktop-bridge.js';
import type { RemoteSlicingOptions } from '../../../../appliance/dashboard/slicing/remote/remote-slicing.js';
import {
  bridgeFeature,
  liveFeature,
  nativeSlicingFeature,
  notificationsFeature,
  printersFeature,
  slicerServiceFeature,
} from '../../../../appliance/dashboard/features.js';
import type { AuthenticatorFactory } from '../../../../appliance/dashboard/features.js';
import { startDashboardFixture, TEST_TOKENS, testAuthenticator, type DashboardFixture, type TestResponse } from '../../../fixtures/dashboard.js';
import { eventually as poll } from '../../../fixtures/eventually.js';
import { onlineStatus } from '../../printers/fake-driver.js';

export { TEST_TOKENS };

/** A driver that takes files: it keeps what it was sent and prints it (state `printing`). */
export class ReceivingDriver implements PrinterDriver {
  readonly capabilities: DriverCapabilities = { upload: true, ams: false, camera: false, gcode_console: false };
  readonly files = new Map<string, string>();
  readonly started: string[] = [];
  printing: string | null = null;

  constructor(
    readonly printer: Readonly<PrinterRecord>,
    private readonly context: DriverContext,
  ) {}

  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}

  status(): PrinterStatus {
    return onlineStatus(this.printer.id, { state: this.printing === null ? 'idle' : 'printing' });
  }

  async command(): Promise<CommandResult> {
    throw new AppError(ErrorCode.validation, 400, 'the test driver takes no commands');
  }

  async upload(source: UploadSource, remoteName: string): Promise<void> {
    if (!('path' in source)) throw new Error('the test driver takes files by path');
    this.files.set(remoteName, readFileSync(source.path, 'utf8'));
  }

  async start(remoteName: string, _options?: StartOptions): Promise<void> {
    this.started.push(remoteName);
    this.printing = remoteName;
    this.context.events.status(this.status());
  }

  async pause(): Promise<void> {}
  async resume(): Promise<void> {}
  async stop(): Promise<void> {
    this.printing = null;
  }
}

export interface TestPrinters {
  registry: DriverRegistry;
  drivers: ReceivingDriver[];
}

export function receivingDrivers(): TestPrinters {
  const registry = new DriverRegistry();
  const drivers: ReceivingDriver[] = [];
  registry.register('marlin-serial', (printer, context) => {
    const driver = new ReceivingDriver(printer, context);
    drivers.push(driver);
    return driver;
  });
  return { registry, drivers };
}

export interface RemoteDashboardOptions {
  url: string;
  token?: string;
  enabled?: boolean;
  remote?: RemoteSlicingOptions;
  bridge?: BridgeOptions;
  printers?: TestPrinters;
  dataDir?: string;
  env?: Record<string, string>;
  /** Default: the test authenticator (one user per role, TEST_TOKENS). */
  createAuthenticator?: AuthenticatorFactory;
}

/** No desktop slicer: the chain goes remote → native. */
export const NO_DESKTOP_SLICERS: BridgeOptions = { searchDirs: [] };

export async function startRemoteDashboard(options: RemoteDashboardOptions): Promise<DashboardFixture> {
  const printers = options.printers ?? receivingDrivers();
  return startDashboardFixture({
    config: { slicer_service: { enabled: options.enabled ?? true, url: options.url, token: options.token ?? '' } },
    createAuthenticator: options.createAuthenticator ?? testAuthenticator,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.env ? { env: options.env } : {}),
    logLevel: 'warn',
    features: [notificationsFeature, printersFeature, liveFeature, nativeSlicingFeature, bridgeFeature, slicerServiceFeature],
    services: { printers: { drivers: printers.registry }, bridge: options.bridge ?? NO_DESKTOP_SLICERS, remote: options.remote ?? {} },
  });
}

/** Posts a multipart form with the test token of `role`, or with `token` itself. */
export async function postForm(
  dash: DashboardFixture,
  path: string,
  form: FormData,
  role: keyof typeof TEST_TOKENS | { token: string } = 'print',
): Promise<Response> {
  const token = typeof role === 'string' ? TEST_TOKENS[role] : role.token;
  return fetch(dash.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

export async function asJson(response: Response): Promise<TestResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** `eventually` at 5 polls a second: this dashboard keeps its rate limit (20/s, 200/min) on. */
export function eventually<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  return poll(what, check, timeoutMs, 200);
}
