/**
 * One printer on the fleet page. The card reads its own entry's signals, so a status event
 * re-renders this card only; the page passes the entry once and never re-renders it.
 */
import { canPrint } from '../api/session';
import { followLink } from '../router';
import { t } from '../texts';
import { AmsSwatches } from './ams-swatches';
import { PrinterControls } from './printer-controls';
import { duration, heaterLabel, heaterOrder, kindOf } from './format';
import { groupOf, type PrinterEntry, type PrinterStatus } from './store';

function Temperatures({ status }: { status: PrinterStatus }) {
  const heaters = Object.entries(status.temperatures).sort(([a], [b]) => heaterOrder(a) - heaterOrder(b));
  if (heaters.length === 0) return null;
  return (
    <dl class="temps">
      {heaters.map(([name, { actual, target }]) => (
        <div key={name} class="temp" data-heater={name}>
          <dt>{heaterLabel(name)}</dt>
          <dd>{t.temperature(actual, target)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Job({ status }: { status: PrinterStatus }) {
  const job = status.job;
  if (job === null) return <p class="job job-none">{t.printer.noJob}</p>;
  const percent = Math.round(job.progress);
  return (
    <div class="job">
      <p class="job-file" title={job.file}>
        {job.file}
      </p>
      <div class="progress-line">
        <progress max={100} value={job.progress} aria-label={t.printer.progress} />
        <span class="percent">{percent}%</span>
      </div>
      <p class="job-meta">
        {job.remaining_s !== null && <span>{t.printer.timeLeft(duration(job.remaining_s))}</span>}
        {job.layer !== null && <span>{t.printer.layer(job.layer, job.total_layers)}</span>}
      </p>
    </div>
  );
}

/**
 * A component that reads signals re-renders when they change, and (by @preact/signals) not when
 * its parent does with the same props: the entry is one object for the printer's life.
 */
export function PrinterCard({ entry }: { entry: PrinterEntry }) {
  const view = entry.view.value;
  const status = entry.status.value;
  const ams = entry.ams.value;
  const plate = entry.plate.value;
  const picture = entry.picture.value;
  const headingId = `printer-${entry.id}`;
  return (
    <article class="card" data-state={status.state} data-group={groupOf(status.state)} data-printer={entry.id} aria-labelledby={headingId}>
      <header class="card-head">
        <h2 id={headingId}>
          <a href={`/printers/${encodeURIComponent(entry.id)}`} onClick={followLink}>
            {view.name}
          </a>
        </h2>
        <span class="state">{t.printer.states[status.state] ?? status.state}</span>
      </header>
      <p class="kind">{kindOf(view.vendor, view.model, view.type)}</p>
      {status.error !== null && <p class="error-text">{status.error}</p>}
      <Temperatures status={status} />
      {picture === null ? (
        <Job status={status} />
      ) : (
        <div class="job-with-picture">
          <img class="card-thumb" src={picture} alt={t.printer.jobPicture} />
          <Job status={status} />
        </div>
      )}
      {plate !== null && (
        <p class="plate" data-plate={plate.state}>
          {t.printer.plate(t.printer.plateStates[plate.state] ?? plate.state)}
        </p>
      )}
      {ams !== null && <AmsSwatches ams={ams} />}
      {canPrint.value && <PrinterControls entry={entry} />}
    </article>
  );
}
