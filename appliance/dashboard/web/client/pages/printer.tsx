/**
 * One printer: its state, job and plate, the live temperature chart, pause/resume/stop, motion,
 * heaters, fans, speed, light and filament (each as the printer's capabilities allow, for print
 * users and up), the G-code console (Marlin), the AMS (Bambu) and its last prints. Admins get
 * "Edit". Loaded from the API, then live; reloaded whenever the live feed (re)connects.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { ApiError, reason } from '../api/client';
import { can, canPrint } from '../api/session';
import { live } from '../app-live';
import { PrinterControls } from '../fleet/printer-controls';
import { duration, heaterLabel, heaterOrder, kindOf } from '../fleet/format';
import type { AmsUpdate, PrinterStatus, PrintProgress } from '../fleet/store';
import { AmsView } from '../printer/ams-view';
import { GcodeConsole } from '../printer/gcode-console';
import { MachineControls } from '../printer/machine-controls';
import { MotionControls } from '../printer/motion-controls';
import { PrinterHistory } from '../printer/printer-history';
import { PrinterPageStore, type Plate } from '../printer/store';
import { TemperatureChart } from '../printer/temperature-chart';
import { followLink } from '../router';
import type { RouteParams } from '../routes';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

/** How often the chart's lines are carried forward to now while nothing changes. */
const TICK_MS = 2000;

function Overview({ store }: { store: PrinterPageStore }) {
  const status = store.entry.status.value;
  const plate = store.entry.plate.value;
  const heaters = Object.entries(status.temperatures).sort(([a], [b]) => heaterOrder(a) - heaterOrder(b));
  return (
    <section class="panel overview" aria-labelledby="overview-title">
      <h2 id="overview-title">{t.printerPage.overview}</h2>
      {status.error !== null && <p class="error-text">{status.error}</p>}
      <dl class="facts">
        <div>
          <dt>{t.printerPage.job}</dt>
          <dd>{status.job === null ? t.printer.noJob : status.job.file}</dd>
        </div>
        {status.job !== null && (
          <div>
            <dt>{t.printer.progress}</dt>
            <dd>
              {`${Math.round(status.job.progress)}%`}
              {status.job.remaining_s !== null && ` · ${t.printer.timeLeft(duration(status.job.remaining_s))}`}
            </dd>
          </div>
        )}
        {plate !== null && (
          <div>
            <dt>{t.printerPage.plate}</dt>
            <dd data-plate={plate.state}>{t.printerPage.plateStates[plate.state]}</dd>
          </div>
        )}
        {heaters.map(([name, { actual, target }]) => (
          <div key={name} data-heater={name}>
            <dt>{heaterLabel(name)}</dt>
            <dd>{t.temperature(actual, target)}</dd>
          </div>
        ))}
      </dl>
      {canPrint.value && <PrinterControls entry={store.entry} />}
    </section>
  );
}

export function PrinterPage({ params }: { params: RouteParams }) {
  const store = useSignal<PrinterPageStore | null>(null);
  const problem = useSignal<string | null>(null);
  const id = params.id;

  useEffect(() => {
    let current: PrinterPageStore | null = null;
    const fail = (err: unknown) => {
      problem.value =
        err instanceof ApiError && err.status === 404 ? t.printerPage.notFound : t.printerPage.loadFailed(reason(err, t.errors.network));
    };
    PrinterPageStore.open(id).then((opened) => {
      current = opened;
      store.value = opened;
    }, fail);
    const offs = [
      live.onOpen(() => current?.reload().catch(fail)),
      live.on('printer.status', (p) => current?.applyStatus(p as PrinterStatus)),
      live.on('print.progress', (p) => current?.applyProgress(p as PrintProgress)),
      live.on('ams.update', (p) => current?.applyAms(p as AmsUpdate)),
      live.on('printer.plate', (p) => current?.applyPlate(p as Plate)),
    ];
    const tick = window.setInterval(() => current?.series.tick(Date.now()), TICK_MS);
    return () => {
      window.clearInterval(tick);
      for (const off of offs) off();
    };
  }, [id]);

  const opened = store.value;
  if (opened === null) {
    return (
      <>
        <h1 tabIndex={-1}>{t.printerPage.title}</h1>
        {problem.value === null ? (
          <p>{t.loading}</p>
        ) : (
          <p class="error-text" role="alert">
            {problem.value}
          </p>
        )}
      </>
    );
  }
  const view = opened.entry.view.value;
  const status = opened.entry.status.value;
  const ams = opened.entry.ams.value;
  return (
    <div class="printer-page" data-printer={view.id} data-state={status.state}>
      <div class="page-head">
        <h1 tabIndex={-1}>{view.name}</h1>
        <span class="state" data-group={status.state}>
          {t.printer.states[status.state] ?? status.state}
        </span>
        {can('admin') && (
          <a class="button" href={`/printers/${encodeURIComponent(view.id)}/edit`} onClick={followLink}>
            {t.printerPage.edit}
          </a>
        )}
      </div>
      <p class="kind">{kindOf(view.vendor, view.model, view.type)}</p>
      <ProblemAlert message={problem.value} />
      <div class="printer-grid">
        <Overview store={opened} />
        <section class="panel chart-panel" aria-labelledby="chart-title">
          <h2 id="chart-title">{t.printerPage.temperatures}</h2>
          <TemperatureChart series={opened.series} />
        </section>
        {canPrint.value && <MotionControls store={opened} />}
        {canPrint.value && <MachineControls store={opened} />}
        {canPrint.value && opened.capabilities.value?.gcode_console === true && <GcodeConsole store={opened} />}
        {ams !== null && <AmsView ams={ams} />}
        <PrinterHistory printerId={view.id} />
      </div>
    </div>
  );
}
