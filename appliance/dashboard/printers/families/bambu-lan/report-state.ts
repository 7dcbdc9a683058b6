/**
 * The printer's state as its `print.push_status` reports describe it. A P1/A1 sends the whole
 * state after a `pushall` and then only what changed (even AMS units and trays reduced to `id`
 * plus the changed fields); an X1 sends the whole state each time. So every report is merged
 * into what is known, never replacing it:
 * - objects merge key by key (a delta never erases a field it does not mention);
 * - lists of entries with an `id` (AMS units, trays) merge entry by entry by `id`, not by array
 *   index: a delta naming tray `2` alone must not land on the first tray;
 * - in a full report (`msg` 0) such a list is complete, so it replaces the known one (an emptied
 *   tray reported as `{id}` then loses its old spool); a tray whose `state` is 9 or 10 (spool
 *   removed) likewise drops what was known about it;
 * - anything else (numbers, strings, other lists) is replaced.
 *
 * Reports carry a `sequence_id` that counts up; a jump means reports were lost, and with deltas
 * a lost report is a lost change, so the caller asks for a full push (see `ReportState.apply`).
 */
export type Json = Record<string, unknown>;

/* Tray `state` values that mean the spool went away (Bambuddy's TestAMSTrayStateClearing). */
const TRAY_CLEARED = new Set([9, 10]);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIdList(value: unknown): value is Json[] {
  return Array.isArray(value) && value.length > 0 && value.every((entry) => isObject(entry) && 'id' in entry);
}

function mergeById(known: Json[], delta: Json[]): Json[] {
  const merged = known.map((entry) => {
    const update = delta.find((d) => String(d.id) === String(entry.id));
    if (!update) return entry;
    return TRAY_CLEARED.has(Number(update.state)) ? update : mergeReport(entry, update, false);
  });
  for (const update of delta) if (!known.some((entry) => String(entry.id) === String(update.id))) merged.push(update);
  return merged;
}

/** `delta` merged into `known` as described above; neither is changed. */
export function mergeReport(known: Json, delta: Json, full: boolean): Json {
  const out: Json = { ...known };
  for (const [key, value] of Object.entries(delta)) {
    const previous = out[key];
    if (!full && isIdList(value) && isIdList(previous)) out[key] = mergeById(previous, value);
    else if (isObject(value) && isObject(previous)) out[key] = mergeReport(previous, value, full);
    else out[key] = value;
  }
  return out;
}

export interface ApplyResult {
  /** Reports were lost before this one (its sequence number skipped some). */
  gap: boolean;
  /** The report touched the AMS or the external spool. */
  ams: boolean;
}

/** The merged `print` state of one connection, and the sequence of its reports. */
export class ReportState {
  print: Json = {};
  /** A report with the printer's whole state has arrived (a pushall answered). */
  complete = false;
  private lastSequence: number | null = null;

  /** Merges one push_status body (the `print` object of the message). */
  apply(report: Json): ApplyResult {
    const { command: _command, sequence_id: sequenceId, msg, ...body } = report;
    const full = Number(msg) === 0;
    this.print = mergeReport(this.print, body, full);
    // Firmware that does not send `msg` at all gets the benefit of the doubt once it names its state.
    if ((full || msg === undefined) && typeof body.gcode_state === 'string') this.complete = true;
    const sequence = Number(sequenceId);
    let gap = false;
    if (Number.isSafeInteger(sequence)) {
      // A smaller number is a restarted printer, not a loss.
      gap = this.lastSequence !== null && sequence > this.lastSequence + 1;
      this.lastSequence = sequence;
    }
    return { gap, ams: 'ams' in body || 'vt_tray' in body };
  }

  reset(): void {
    this.print = {};
    this.complete = false;
    this.lastSequence = null;
  }
}
