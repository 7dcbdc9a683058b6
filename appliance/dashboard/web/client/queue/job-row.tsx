/**
 * One job of the queue: its place, state, copies, requirements, where its copies are, why it
 * waits; for print and admin users the commands the job's state allows (states.ts of the queue).
 * The row is draggable; the move buttons do the same from the keyboard.
 */
import { canPrint } from '../api/session';
import { duration } from '../fleet/format';
import { t } from '../texts';
import type { Job } from './store';

const q = t.queue;

export interface JobActions {
  move(job: Job, position: number): void;
  setState(job: Job, state: 'queued' | 'held' | 'cancelled'): void;
  setPriority(job: Job, priority: number): void;
  remove(job: Job): void;
}

export interface DragHandlers {
  onDragStart(e: DragEvent): void;
  onDragOver(e: DragEvent): void;
  onDrop(e: DragEvent): void;
  onDragEnd(): void;
}

function requirementsText(job: Job, printerName: (id: string) => string): string[] {
  const r = job.requirements;
  const lines = [r.printer_ids.length === 0 ? q.anyPrinter : q.printers(r.printer_ids.map(printerName).join(', '))];
  if (r.filaments.length === 0) lines.push(q.noFilament);
  for (const f of r.filaments) lines.push(q.filament(f.filament, f.material, f.color_hex ?? q.anyColour));
  return lines;
}

export function JobRow(props: {
  job: Job;
  index: number;
  count: number;
  printerName: (id: string) => string;
  actions: JobActions;
  dragHandlers: DragHandlers;
}) {
  const { job, index, count, printerName, actions } = props;
  const total = job.copies.filter((c) => c.state !== 'cancelled').length;
  const running = job.copies.filter((c) => c.printer_id !== null && (c.state === 'dispatching' || c.state === 'printing'));
  const busy = running.length > 0;
  const ended = job.state === 'done' || job.state === 'cancelled';
  const print = canPrint.value;
  return (
    <li class="job" data-state={job.state} data-job={job.id} draggable={print && !ended} {...props.dragHandlers}>
      <div class="job-head">
        <span class="job-pos">{q.position(job.position)}</span>
        <h3>{job.name}</h3>
        <span class="badge" data-state={job.state}>
          {q.states[job.state] ?? job.state}
        </span>
      </div>
      <p class="job-meta">
        {q.copies(job.copies_done, total)}
        {job.plan.estimate_s !== null && ` · ${q.estimate(duration(job.plan.estimate_s))}`}
        {` · ${job.file.name}`}
      </p>
      <ul class="job-reqs">
        {requirementsText(job, printerName).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {running.map((c) => (
        <p key={c.copy} class="job-copy">
          {q.onPrinter(c.copy, printerName(c.printer_id ?? ''), q.states[c.state] ?? c.state)}
        </p>
      ))}
      {job.waiting_reason !== null && !ended && <p class="job-wait">{q.waiting(job.waiting_reason)}</p>}
      {job.error !== null && <p class="error-text">{job.error}</p>}
      {print && (
        <div class="job-actions">
          <button
            type="button"
            class="icon"
            aria-label={q.moveUp(job.name)}
            disabled={index === 0}
            onClick={() => actions.move(job, job.position - 1)}
          >
            <span aria-hidden="true">↑</span>
          </button>
          <button
            type="button"
            class="icon"
            aria-label={q.moveDown(job.name)}
            disabled={index === count - 1}
            onClick={() => actions.move(job, job.position + 1)}
          >
            <span aria-hidden="true">↓</span>
          </button>
          {!ended && (
            <label class="priority">
              <span>{q.priority}</span>
              <input
                type="number"
                min={-1000}
                max={1000}
                step={1}
                value={job.priority}
                aria-label={q.priorityOf(job.name)}
                onChange={(e) => {
                  const value = Number((e.currentTarget as HTMLInputElement).value);
                  if (Number.isInteger(value) && value !== job.priority) actions.setPriority(job, value);
                }}
              />
            </label>
          )}
          {job.state === 'held' && (
            <button type="button" onClick={() => actions.setState(job, 'queued')}>
              {q.release}
            </button>
          )}
          {job.state === 'failed' && (
            <button type="button" onClick={() => actions.setState(job, 'queued')}>
              {q.requeue}
            </button>
          )}
          {!ended && job.state !== 'held' && (
            <button type="button" onClick={() => actions.setState(job, 'held')}>
              {q.hold}
            </button>
          )}
          {!ended && !busy && (
            <button type="button" class="danger" onClick={() => window.confirm(q.confirmCancel(job.name)) && actions.setState(job, 'cancelled')}>
              {q.cancel}
            </button>
          )}
          {!busy && (
            <button type="button" class="danger" onClick={() => window.confirm(q.confirmRemove(job.name)) && actions.remove(job)}>
              {q.remove}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
