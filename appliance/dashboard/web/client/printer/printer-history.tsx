/**
 * The printer's last 20 prints from the history (`GET /api/history?printer_id=`), reloaded when
 * one ends (`history.added`), with a link to the history page filtered by this printer.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, reason, type Ok } from '../api/client';
import { live } from '../app-live';
import { duration } from '../fleet/format';
import { followLink } from '../router';
import { t } from '../texts';

type HistoryRecord = Ok<'GET /api/history'>['items'][number];
const SHOWN = 20;

export function PrinterHistory({ printerId }: { printerId: string }) {
  const records = useSignal<HistoryRecord[] | null>(null);
  const problem = useSignal<string | null>(null);
  useEffect(() => {
    const load = () =>
      api('GET /api/history', { query: { printer_id: printerId, limit: SHOWN } }).then(
        (page) => {
          records.value = page.items;
          problem.value = null;
        },
        (err: unknown) => {
          problem.value = t.printerPage.historyFailed(reason(err, t.errors.network));
        },
      );
    void load();
    const off = live.on('history.added', (record) => {
      if ((record as HistoryRecord).printer_id === printerId) void load();
    });
    return off;
  }, [printerId]);

  return (
    <section class="panel" aria-labelledby="history-title">
      <h2 id="history-title">{t.printerPage.history}</h2>
      {problem.value !== null && <p class="error-text">{problem.value}</p>}
      {records.value !== null && records.value.length === 0 && <p class="empty">{t.printerPage.noHistory}</p>}
      {records.value !== null && records.value.length > 0 && (
        <table class="history-table">
          <thead>
            <tr>
              <th scope="col">{t.printerPage.file}</th>
              <th scope="col">{t.printerPage.started}</th>
              <th scope="col">{t.printerPage.duration}</th>
              <th scope="col">{t.printerPage.result}</th>
            </tr>
          </thead>
          <tbody>
            {records.value.map((record) => (
              <tr key={record.id} data-state={record.state}>
                <td class="history-file">{record.file}</td>
                <td>{new Date(record.started_at).toLocaleString()}</td>
                <td>{record.duration_s === null ? '' : duration(record.duration_s)}</td>
                <td>{t.printerPage.recordStates[record.state] ?? record.state}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a href={`/history?printer_id=${encodeURIComponent(printerId)}`} onClick={followLink}>
          {t.printerPage.allHistory}
        </a>
      </p>
    </section>
  );
}
