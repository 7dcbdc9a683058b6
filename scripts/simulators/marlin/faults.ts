/**
 * Fault injection. Each kind has a rate (the chance that an eligible line or command gets it) and
 * a count of forced occurrences (the next N eligible ones get it for sure, so a test can provoke
 * exactly one). Random draws come from a seeded generator so a run can be repeated.
 *
 * - resend:     a numbered line is refused with `Resend: <its number>` (+ `ok`), as after noise.
 * - checksum:   a numbered line is refused as `Error:checksum mismatch`, then `Resend:` and `ok`.
 * - drop:       a line is lost on the wire: no answer at all; the host must time out and resend.
 * - busy:       a command takes 5 s longer, so `echo:busy: processing` lines come before its ok.
 * - disconnect: after a line arrives the cable is pulled, and put back 5 s later.
 */
export const FAULT_KINDS = ['resend', 'checksum', 'drop', 'busy', 'disconnect'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultRates = Record<FaultKind, number>;

export const NO_FAULTS: FaultRates = { resend: 0, checksum: 0, drop: 0, busy: 0, disconnect: 0 };

function isFaultKind(name: string): name is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(name);
}

function checkRate(kind: string, rate: unknown): number {
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new RangeError(`fault ${kind}: expected a rate from 0 to 1, got ${JSON.stringify(rate)}`);
  }
  return rate;
}

/** Parses `resend=0.05,checksum=0.02,drop=0.01,busy=0.1` (empty text: no faults). */
export function parseFaults(text: string): FaultRates {
  const rates = { ...NO_FAULTS };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [name, value, extra] = part.split('=');
    if (!isFaultKind(name)) throw new RangeError(`unknown fault "${name}" (known: ${FAULT_KINDS.join(', ')})`);
    if (value === undefined || extra !== undefined || !/^\s*(\d+\.?\d*|\.\d+)\s*$/.test(value)) {
      throw new RangeError(`fault ${name}: expected ${name}=<rate from 0 to 1>, got "${part}"`);
    }
    rates[name] = checkRate(name, Number(value));
  }
  return rates;
}

export function formatFaults(rates: FaultRates): string {
  const set = FAULT_KINDS.filter((k) => rates[k] > 0).map((k) => `${k}=${rates[k]}`);
  return set.length > 0 ? set.join(',') : 'none';
}

/** mulberry32: small, fast and good enough to decide which lines get a fault (and thermistor noise). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private current: FaultRates;
  private readonly forced: Record<FaultKind, number> = { ...NO_FAULTS };
  private readonly random: () => number;

  constructor(rates: Partial<FaultRates> = {}, seed = 1) {
    this.current = { ...NO_FAULTS };
    this.set(rates);
    this.random = seededRandom(seed);
  }

  get rates(): FaultRates {
    return { ...this.current };
  }

  /** Changes some rates; the others stay. Throws RangeError for an unknown kind or a bad rate. */
  set(rates: Partial<FaultRates>): void {
    const next = { ...this.current };
    for (const [kind, rate] of Object.entries(rates)) {
      if (!isFaultKind(kind)) throw new RangeError(`unknown fault "${kind}" (known: ${FAULT_KINDS.join(', ')})`);
      next[kind] = checkRate(kind, rate);
    }
    this.current = next;
  }

  /** The next `count` eligible lines or commands get this fault, whatever the rates. */
  force(kind: FaultKind, count = 1): void {
    if (!isFaultKind(kind)) throw new RangeError(`unknown fault "${kind}" (known: ${FAULT_KINDS.join(', ')})`);
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`fault count must be a whole number, got ${count}`);
    this.forced[kind] = count;
  }

  /** Decides whether this eligible line or command gets the fault. */
  strikes(kind: FaultKind): boolean {
    if (this.forced[kind] > 0) {
      this.forced[kind]--;
      return true;
    }
    return this.current[kind] > 0 && this.random() < this.current[kind];
  }
}
