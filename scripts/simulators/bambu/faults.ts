/**
 * Fault modes of a virtual printer, switchable at start and at run time:
 * - `busy`: the printer runs a job started on its screen (RUNNING, no progress) until the fault is
 *   cleared (then FINISH); a `project_file` meanwhile is refused as any start during a print is.
 * - `dropPublishes`: a share of the printer's publishes (reports and replies) is never sent.
 * - `silentStream`: the printer stops publishing altogether. A `pushing.start` or
 *   `pushing.pushall` ends it (what ha-bambulab sends after 60 s of silence), as does clearing it.
 * - `wrongAccessCode`: the printer's broker and FTPS accept another code than the one the client
 *   was given; current MQTT sessions are dropped, new ones get CONNACK 5.
 * - `developerModeOff`: LAN-only mode without Developer Mode on 2025+ firmware. Queries
 *   (`get_version`, `pushall`) still answer; every control command (`print.*`, `system.*`) is
 *   dropped without reply and raises HMS 0500-0500-0001-0007 "MQTT command verification
 *   failed"; an X1C sets bit 0x20000000 of `fun`.
 * Broker restarts are not a mode: see `restartBroker()` of the farm.
 */
export const FAULT_NAMES = ['busy', 'dropPublishes', 'silentStream', 'wrongAccessCode', 'developerModeOff'] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** HMS "MQTT command verification failed": attr 0x05000500, code 0x00010007. */
export const HMS_COMMAND_VERIFICATION = { attr: 0x05000500, code: 0x00010007 } as const;

export function isFaultName(value: string): value is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(value);
}

/**
 * Decides which publishes `dropPublishes` loses: `ratio` of them, spread evenly and the same on
 * every run (0.5 drops every second one), so a test sees the same stream each time.
 */
export class PublishDropper {
  private count = 0;

  constructor(private readonly ratio: number) {
    if (!(ratio > 0 && ratio <= 1)) throw new Error('the drop ratio must be above 0 and at most 1');
  }

  next(): boolean {
    this.count++;
    return Math.floor(this.count * this.ratio) > Math.floor((this.count - 1) * this.ratio);
  }
}

/** An access code of the same form that is certainly not `code`. */
export function otherAccessCode(code: string): string {
  const rotated = code.slice(1) + code.slice(0, 1);
  if (rotated !== code) return rotated;
  const first = code[0] === '0' ? '1' : '0';
  return first + code.slice(1);
}
