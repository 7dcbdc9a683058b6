/** One recorded print: picture, who started it, times, estimate against the real time, filament per slot with its spool. */
import { useCallback } from 'preact/hooks';
import { api, type Ok } from '../api/client';
import { can } from '../api/session';
import { duration, swatchStyle } from '../fleet/format';
import { followLink } from '../router';
import { t } from '../texts';
import { BlobImage } from './blob-image';

export type HistoryRecord = Ok<'GET /api/history/{id}'>;
type Slot = HistoryRecord['filament'][number]['slot'];

const d = t.history.detail;

export function slotName(slot: Slot): string {
  if (slot.kind === 'tool') return t.spools.slots.tool(slot.tool);
  if (slot.kind === 'ams') return t.spools.slots.ams(slot.unit, slot.tray);
  return t.spools.slots.external;
}

export const when = (iso: string | null) => (iso === null ? d.none : new Date(iso).toLocaleString());

export function HistoryDetail({ record, onClose, onRemove }: { record: HistoryRecord; onClose: () => void; onRemove: () => void }) {
  const loadThumbnail = useCallback(() => api('GET /api/history/{id}/thumbnail.png', { path: { id: record.id } }), [record.id]);
  const by = record.started_by;
  return (
    <section class="panel detail" aria-labelledby="record-heading">
      <div class="page-head">
        <h2 id="record-heading" tabIndex={-1}>
          {record.file}
        </h2>
        <button type="button" onClick={onClose}>
          {d.close}
        </button>
      </div>
      {record.thumbnail !== null && <BlobImage load={loadThumbnail} alt={d.thumbnail(record.file)} className="thumb" size={128} />}
      <dl class="facts">
        <dt>{t.history.columns.printer}</dt>
        <dd>{record.printer_name}</dd>
        <dt>{t.history.columns.state}</dt>
        <dd>
          <span class="badge" data-state={record.state}>
            {t.history.states[record.state]}
          </span>
        </dd>
        <dt>{d.startedBy}</dt>
        <dd>{[d.by[by.kind], by.user].filter(Boolean).join(': ')}</dd>
        <dt>{d.started}</dt>
        <dd>{when(record.started_at)}</dd>
        <dt>{d.ended}</dt>
        <dd>{when(record.ended_at)}</dd>
        <dt>{d.duration}</dt>
        <dd>{record.duration_s === null ? d.none : duration(record.duration_s)}</dd>
        <dt>{d.estimate}</dt>
        <dd>
          {record.estimate_s === null ? d.none : duration(record.estimate_s)}
          {record.estimate_s !== null &&
            record.duration_s !== null &&
            record.estimate_s > 0 &&
            ` (${d.accuracy(record.duration_s / record.estimate_s)})`}
        </dd>
        <dt>{d.progress}</dt>
        <dd>{`${Math.round(record.progress)} %`}</dd>
        {record.error !== null && (
          <>
            <dt>{d.error}</dt>
            <dd class="error-text">{record.error}</dd>
          </>
        )}
      </dl>
      {record.filament.length > 0 && (
        <table class="table">
          <caption>{d.filament}</caption>
          <thead>
            <tr>
              <th scope="col">{d.slot}</th>
              <th scope="col">{t.history.material}</th>
              <th scope="col">{d.spool}</th>
              <th scope="col">{d.grams}</th>
              <th scope="col">{d.cost}</th>
            </tr>
          </thead>
          <tbody>
            {record.filament.map((f) => (
              <tr key={slotName(f.slot)}>
                <td>{slotName(f.slot)}</td>
                <td>
                  <span class="swatch small" style={swatchStyle(f.color_hex)} /> {f.material ?? d.none}
                </td>
                <td>{f.spool_id === null ? d.none : <a href={`/spools/${f.spool_id}`} onClick={followLink}>{`#${f.spool_id}`}</a>}</td>
                <td>{f.grams === null ? d.none : f.grams.toFixed(1)}</td>
                <td>{f.cost === null ? d.none : f.cost.toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can('admin') && (
        <button type="button" class="danger" onClick={() => window.confirm(d.confirmRemove(record.file)) && onRemove()}>
          {d.remove}
        </button>
      )}
    </section>
  );
}
