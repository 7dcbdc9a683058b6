/**
 * The fleet page: the summary bar (which filters, kept in the URL as `?state=`) and one card per
 * printer, live. The store lives as long as the app (a return to the page shows the last state at
 * once); the list is reloaded whenever the live feed (re)connects, since events may have been
 * missed meanwhile.
 */
import { computed, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { reason } from '../api/client';
import { live } from '../app-live';
import { PrinterCard } from '../fleet/printer-card';
import { FleetStore, STATE_GROUPS, type AmsUpdate, type Plate, type PrinterStatus, type PrintProgress, type StateGroup } from '../fleet/store';
import { SummaryBar } from '../fleet/summary-bar';
import { followLink, location, navigate } from '../router';
import { can } from '../api/session';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

function groupFromQuery(query: URLSearchParams): StateGroup | null {
  const value = query.get('state');
  return STATE_GROUPS.find((g) => g === value) ?? null;
}

export const fleet = new FleetStore(computed(() => groupFromQuery(location.value.query)));

export function FleetPage() {
  const problem = useSignal<string | null>(null);
  useEffect(() => {
    const reload = () => {
      fleet.load().then(
        () => {
          problem.value = null;
        },
        (err: unknown) => {
          problem.value = t.fleet.loadFailed(reason(err, t.errors.network));
        },
      );
    };
    let reloadTimer: number | undefined;
    const reloadSoon = () => {
      window.clearTimeout(reloadTimer);
      reloadTimer = window.setTimeout(reload, 300);
    };
    const offs = [
      live.onOpen(reload),
      live.on('printer.status', (p) => {
        if (!fleet.applyStatus(p as PrinterStatus)) reloadSoon();
      }),
      live.on('print.progress', (p) => fleet.applyProgress(p as PrintProgress)),
      live.on('ams.update', (p) => fleet.applyAms(p as AmsUpdate)),
      live.on('printer.plate', (p) => fleet.applyPlate(p as Plate)),
    ];
    reload();
    return () => {
      window.clearTimeout(reloadTimer);
      for (const off of offs) off();
    };
  }, []);

  const pick = (group: StateGroup | null) => navigate(group === null ? '/' : `/?state=${group}`, true);
  const ids = fleet.visible.value;
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>{t.fleet.title}</h1>
        {can('admin') && (
          <a class="button" href="/printers/new" onClick={followLink}>
            {t.fleet.addPrinter}
          </a>
        )}
      </div>
      <SummaryBar store={fleet} onPick={pick} />
      <ProblemAlert message={problem.value} />
      {!fleet.loaded.value && problem.value === null && <p>{t.loading}</p>}
      {fleet.loaded.value && fleet.total.value === 0 && <p class="empty">{t.fleet.empty}</p>}
      {fleet.loaded.value && fleet.total.value > 0 && ids.length === 0 && <p class="empty">{t.fleet.emptyFilter}</p>}
      <div class="cards">
        {ids.map((id) => {
          const entry = fleet.entry(id);
          return entry === undefined ? null : <PrinterCard key={id} entry={entry} />;
        })}
      </div>
    </>
  );
}
