/**
 * RAUC behind a small interface: the slots' status, a bundle's checked manifest, an install with
 * its progress. This implementation runs RAUC's own command line, which talks to `rauc service`
 * over the system D-Bus (DBUS_SYSTEM_BUS_ADDRESS, inherited, points it at another bus in tests):
 * RAUC's JSON output for status and info, and for an install the progress lines its client prints
 * from the service's Progress property ("NN% message"), its LastError line and its exit status.
 */
import { spawn } from 'node:child_process';

export interface SlotStatus {
  /** RAUC's slot name, e.g. `rootfs.0`. */
  name: string;
  /** The bootloader's name of the slot (A, B). */
  bootname: string | null;
  /** RAUC's slot state: `booted`, `active` or `inactive`. */
  state: string;
  /** What the bootloader says of it: good or bad (null when RAUC could not ask). */
  boot_status: string | null;
  /** The bundle last installed into it (null for a slot written at the factory). */
  version: string | null;
  build: string | null;
  installed_at: string | null;
}

export interface RaucStatus {
  compatible: string;
  /** Bootname of the booted slot. */
  booted: string | null;
  /** Slot name of the one the bootloader starts next. */
  primary: string | null;
  slots: SlotStatus[];
}

export interface BundleInfo {
  compatible: string;
  version: string;
  build: string | null;
  description: string | null;
}

export interface InstallProgress {
  percent: number;
  message: string;
}

/** Why RAUC refused a bundle: its signature, or the file itself (not a bundle, damaged, a format not allowed). */
export class BundleRejected extends Error {
  constructor(
    readonly reason: 'signature' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

export interface UpdateEngine {
  status(): Promise<RaucStatus>;
  /** The bundle's manifest once RAUC verified its signature with the keyring; throws BundleRejected. */
  inspect(bundlePath: string): Promise<BundleInfo>;
  /** Installs into the other slot and makes it primary; resolves when RAUC says it succeeded, rejects with its error. */
  install(bundlePath: string, onProgress: (progress: InstallProgress) => void): Promise<void>;
}

export interface RaucCliOptions {
  /** The rauc program (default `rauc` on the PATH). */
  command?: string;
  /** The system config `rauc info` reads its keyring, check-purpose and allowed formats from (default /etc/rauc/system.conf). */
  conf?: string;
  env?: NodeJS.ProcessEnv;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** RAUC's messages that mean the signature did not verify against the keyring. */
const SIGNATURE_FAILURE = /signature verification failed|verify error|no valid CMS|unable to get local issuer|certificate/i;

/** The last non-empty line of RAUC's stderr: its error, after the informational messages. */
function lastError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^rauc-Message:/.test(line));
  return lines.at(-1) ?? 'RAUC gave no reason';
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function parseStatus(text: string): RaucStatus {
  const raw = JSON.parse(text) as {
    compatible: string;
    booted?: string | null;
    boot_primary?: string | null;
    slots: Array<Record<string, Record<string, unknown>>>;
  };
  // The bootable slots: the Pi's boot partitions are child slots (`parent=`, no bootname) that
  // RAUC writes and switches together with their root slot, so they are not slots of their own here.
  const slots = raw.slots.flatMap((entry) =>
    Object.entries(entry)
      .filter(([, slot]) => slot.parent === undefined || slot.parent === null)
      .map(([name, slot]): SlotStatus => {
        const status = (slot.slot_status ?? {}) as { bundle?: Record<string, unknown>; installed?: { timestamp?: unknown } };
        return {
          name,
          bootname: stringOrNull(slot.bootname),
          state: String(slot.state ?? 'inactive'),
          boot_status: stringOrNull(slot.boot_status),
          version: stringOrNull(status.bundle?.version),
          build: stringOrNull(status.bundle?.build),
          installed_at: stringOrNull(status.installed?.timestamp),
        };
      }),
  );
  slots.sort((a, b) => a.name.localeCompare(b.name));
  return { compatible: raw.compatible, booted: stringOrNull(raw.booted), primary: stringOrNull(raw.boot_primary), slots };
}

export class RaucCli implements UpdateEngine {
  readonly #command: string;
  readonly #conf: string;
  readonly #env: NodeJS.ProcessEnv;

  constructor(options: RaucCliOptions = {}) {
    this.#command = options.command ?? 'rauc';
    this.#conf = options.conf ?? '/etc/rauc/system.conf';
    this.#env = options.env ?? process.env;
  }

  #run(args: string[], onLine?: (line: string) => void): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.#command, args, { env: this.#env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let partial = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (!onLine) return;
        partial += chunk;
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) onLine(line);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  async status(): Promise<RaucStatus> {
    const r = await this.#run(['status', '--detailed', '--output-format=json']);
    if (r.code !== 0) throw new Error(`rauc status failed: ${lastError(r.stderr)}`);
    return parseStatus(r.stdout);
  }

  async inspect(bundlePath: string): Promise<BundleInfo> {
    const r = await this.#run([`--conf=${this.#conf}`, 'info', '--output-format=json', bundlePath]);
    if (r.code !== 0) {
      const reason = lastError(r.stderr);
      throw new BundleRejected(SIGNATURE_FAILURE.test(reason) ? 'signature' : 'invalid', reason);
    }
    const info = JSON.parse(r.stdout) as Record<string, unknown>;
    return {
      compatible: String(info.compatible ?? ''),
      version: String(info.version ?? ''),
      build: stringOrNull(info.build),
      description: stringOrNull(info.description),
    };
  }

  async install(bundlePath: string, onProgress: (progress: InstallProgress) => void): Promise<void> {
    let error: string | null = null;
    const r = await this.#run(['install', bundlePath], (line) => {
      const progress = /^\s*(\d{1,3})% (.*)$/.exec(line);
      if (progress) onProgress({ percent: Number(progress[1]), message: progress[2] ?? '' });
      const failed = /LastError: (.*)$/.exec(line);
      if (failed) error = failed[1] ?? null;
    });
    if (r.code !== 0) throw new Error(error ?? lastError(r.stderr));
  }
}
