/**
 * The history page: recorded prints with filters, sort and pages (kept in the URL), a record's
 * details, the CSV export of the current filters and the statistics charts. The list follows
 * `history.added` (a closed record may belong to the page shown).
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, type Ok, reason } from '../api/client';
import { live } from '../app-live';
import { duration } from '../fleet/format';
import { type HistoryRecord, HistoryDetail, when } from '../history/detail';
import { HistoryFilters } from '../history/filters';
import { exportQuery, fromUrl, listQuery, PAGE_SIZE, type PageQuery, toUrl } from '../history/query';
import { type HistoryStats, HistoryStatsView } from '../history/stats';
import { location, navigate } from '../router';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

const h = t.history;
type Page = Ok<'GET /api/history'>;

/** Saves text as a file: the export needs the session's Authorization header, which a plain link cannot send. */
function download(text: string, name: string): void {
  // The API's byte-order mark (for spreadsheets) is dropped when the answer is read as text; put it back.
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function HistoryPage() {
  const page = useSignal<Page | null>(null);
  const stats = useSignal<HistoryStats | null>(null);
  const printers = useSignal<Array<{ id: string; name: string }>>([]);
  const problem = useSignal<string | null>(null);
  const record = useSignal<HistoryRecord | null>(null);
  const current = fromUrl(location.value.query);
  const key = toUrl(current);

  const load = async (query: PageQuery) => {
    try {
      const [list, figures] = await Promise.all([
        api('GET /api/history', { query: listQuery(query) }),
        api('GET /api/history/stats', { query: query.filters }),
      ]);
      page.value = list;
      stats.value = figures;
      problem.value = null;
    } catch (err) {
      problem.value = h.loadFailed(reason(err, t.errors.network));
    }
  };

  useEffect(() => {
    void load(current);
    const offs = [
      live.on('history.added', () => void load(fromUrl(location.value.query))),
      live.onOpen(() => void load(fromUrl(location.value.query))),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [key]);

  useEffect(() => {
    api('GET /api/printers').then(
      ({ items }) => {
        printers.value = items.map((p) => ({ id: p.id, name: p.name })).sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
      },
      () => {
        // The filter then lists no printers; the records still show their names.
      },
    );
  }, []);

  const go = (next: PageQuery) => navigate(toUrl(next));
  const open = async (id: string) => {
    try {
      record.value = await api('GET /api/history/{id}', { path: { id } });
      window.setTimeout(() => document.getElementById('record-heading')?.focus(), 0);
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    }
  };
  const exportCsv = async () => {
    try {
      const text = await api('GET /api/history/export', { query: exportQuery(current) });
      download(text, `print-history-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (err) {
      problem.value = h.exportFailed(reason(err, t.errors.network));
    }
  };

  const list = page.value;
  const first = list === null ? 0 : list.offset + 1;
  const last = list === null ? 0 : list.offset + list.items.length;
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>{h.title}</h1>
        <button type="button" onClick={() => void exportCsv()}>
          {h.exportCsv}
        </button>
      </div>
      <HistoryFilters current={current} printers={printers.value} onApply={go} />
      <ProblemAlert message={problem.value} />
      {record.value !== null && (
        <HistoryDetail
          record={record.value}
          onClose={() => {
            record.value = null;
          }}
          onRemove={async () => {
            const id = record.value?.id;
            if (id === undefined) return;
            try {
              await api('DELETE /api/history/{id}', { path: { id } });
              record.value = null;
              await load(current);
            } catch (err) {
              problem.value = reason(err, t.errors.network);
            }
          }}
        />
      )}
      {list === null && problem.value === null && <p>{t.loading}</p>}
      {list !== null && (
        <section class="panel">
          {list.total === 0 ? (
            <p class="empty">{h.empty}</p>
          ) : (
            <div class="table-scroll">
              <table class="table history-table">
                <caption>{h.tableCaption(first, last, list.total)}</caption>
                <thead>
                  <tr>
                    <th scope="col">{h.columns.started}</th>
                    <th scope="col">{h.columns.printer}</th>
                    <th scope="col">{h.columns.file}</th>
                    <th scope="col">{h.columns.state}</th>
                    <th scope="col">{h.columns.duration}</th>
                    <th scope="col">{h.columns.filament}</th>
                    <th scope="col">{h.columns.cost}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((r) => (
                    <tr key={r.id} data-record={r.id}>
                      <td>{when(r.started_at)}</td>
                      <td>{r.printer_name}</td>
                      <td>
                        <button type="button" class="link" aria-label={h.details(r.file)} onClick={() => void open(r.id)}>
                          {r.file}
                        </button>
                      </td>
                      <td>
                        <span class="badge" data-state={r.state}>
                          {h.states[r.state]}
                        </span>
                      </td>
                      <td>{r.duration_s === null ? '' : duration(r.duration_s)}</td>
                      <td>{`${r.filament.reduce((sum, f) => sum + (f.grams ?? 0), 0).toFixed(1)} g`}</td>
                      <td>{r.cost === null ? '' : r.cost.toFixed(2)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div class="pager">
            <button type="button" disabled={list.offset === 0} onClick={() => go({ ...current, offset: Math.max(0, list.offset - PAGE_SIZE) })}>
              {h.previous}
            </button>
            <button type="button" disabled={last >= list.total} onClick={() => go({ ...current, offset: list.offset + PAGE_SIZE })}>
              {h.next}
            </button>
          </div>
        </section>
      )}
      {stats.value !== null && <HistoryStatsView stats={stats.value} />}
    </>
  );
}
