/**
 * The printer a job's next copy goes to in a round, or the reason it waits, said the way an
 * operator looks for it: `no printer has PETG black (#000000) loaded`, `plate not cleared on P1`,
 * `waiting for P1 (printer "P1" is busy (printing))`. Among printers that fit and have the
 * filament, the first ready one with a clear plate and no other copy this round wins (pinned
 * printers in the order the job lists them, the others by name).
 */
import type { FilamentRequirement, QueueJob } from './job.js';
import { describeFilament, matchFilaments, unfitReason, type FilamentMatch } from './matching.js';
import type { RoundPrinter } from './printer-snapshots.js';

export type Pick = { printer: RoundPrinter; match: FilamentMatch } | { reason: string };

const requirementKey = (f: FilamentRequirement) => `${f.material} ${f.color_hex ?? ''}`;

/**
 * The printer's match for these filaments, computed once per round: its snapshot does not change
 * within a round, and the jobs of a farm queue mostly ask for the same few filaments (500 jobs ×
 * 55 printers made a round of the farm bench 85 ms, mostly AMS mappings and colour distances).
 */
function matchOnce(printer: RoundPrinter, filaments: readonly FilamentRequirement[]): ReturnType<typeof matchFilaments> {
  const key = filaments.map((f) => `${f.filament}:${requirementKey(f)}`).join('|');
  let match = printer.matches.get(key);
  if (match === undefined) {
    match = matchFilaments(printer.snapshot, filaments);
    printer.matches.set(key, match);
  }
  return match;
}

export function pickPrinter(job: QueueJob, printers: readonly RoundPrinter[], taken: ReadonlySet<string>): Pick {
  const pinned = job.requirements.printer_ids;
  const ordered = pinned.length > 0 ? pinned.flatMap((id) => printers.filter((p) => p.view.id === id)) : printers;
  const unfit: string[] = [];
  // Described only when the reason needs them (a description measures 11 colour distances).
  const lacking = new Map<string, FilamentRequirement>();
  const blocked: string[] = [];
  const plateBlocked: string[] = [];
  let fitting = 0;
  for (const printer of ordered) {
    const why = unfitReason(printer.snapshot, job);
    if (why !== null) {
      unfit.push(`${printer.view.name}: ${why}`);
      continue;
    }
    fitting++;
    const match = matchOnce(printer, job.requirements.filaments);
    if ('missing' in match) {
      for (const f of match.missing) if (!lacking.has(requirementKey(f))) lacking.set(requirementKey(f), f);
      continue;
    }
    if (taken.has(printer.view.id)) blocked.push(`${printer.view.name} (taken by another job)`);
    else if (printer.notReady !== null) blocked.push(`${printer.view.name} (${printer.notReady})`);
    else if (!printer.plateClear) plateBlocked.push(printer.view.name);
    else return { printer, match };
  }
  if (pinned.length > 0 && ordered.length === 0) return { reason: `the printers the job names do not exist (${pinned.join(', ')})` };
  if (fitting === 0) return { reason: ordered.length === 0 ? 'no printers are configured' : `no printer fits the job (${unfit.join('; ')})` };
  if (plateBlocked.length > 0 && blocked.length === 0) return { reason: platesReason(plateBlocked) };
  if (blocked.length > 0 || plateBlocked.length > 0) {
    const busy = blocked.length <= NAMED ? `waiting for ${blocked.join(', ')}` : 'waiting for one of the printers that fit it (busy or not ready)';
    return { reason: plateBlocked.length > 0 ? `${busy}; ${platesReason(plateBlocked)}` : busy };
  }
  const described = new Set([...lacking.values()].map(describeFilament));
  return { reason: `no printer has ${[...described].join(' and ')} loaded` };
}

/**
 * Up to this many printers are named in a reason. Beyond, the reason says what the job waits for
 * without names or counts: in a large farm they would change with every plate and every print,
 * and each change of a reason is a message to every browser.
 */
const NAMED = 3;

function platesReason(printers: readonly string[]): string {
  return printers.length <= NAMED ? `plate not cleared on ${printers.join(', ')}` : 'plate not cleared on any of the printers that fit it';
}
