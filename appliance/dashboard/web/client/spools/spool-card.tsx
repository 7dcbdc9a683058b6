/** One spool: colour, material, what is left (a bar), where it is, its QR code, and the actions the role allows. */
import { useCallback } from 'preact/hooks';
import { api } from '../api/client';
import { can, canPrint } from '../api/session';
import { swatchStyle } from '../fleet/format';
import { BlobImage } from '../history/blob-image';
import { t } from '../texts';
import { slotText } from './assign';
import type { Spool } from './store';

const s = t.spools;

export interface SpoolCardProps {
  spool: Spool;
  low: boolean;
  where: string;
  selected: boolean;
  onEdit: () => void;
  onAssign: () => void;
  onLabel: () => void;
  onRemove: () => void;
}

export function spoolWhere(spool: Spool, printerName: (id: string) => string, locationName: string | null): string {
  if (spool.printer_id !== null && spool.slot !== null) return s.loadedOn(printerName(spool.printer_id), slotText(spool.slot));
  return locationName === null ? s.noLocation : s.onShelf(locationName);
}

export function SpoolCard({ spool, low, where, selected, onEdit, onAssign, onLabel, onRemove }: SpoolCardProps) {
  const loadQr = useCallback(() => api('GET /api/inventory/spools/{id}/qr.png', { path: { id: spool.id } }), [spool.id]);
  return (
    <li class="spool card" data-spool={spool.id} data-selected={selected ? 'true' : undefined}>
      <div class="card-head">
        <span class="swatch" style={swatchStyle(spool.color_hex)} />
        <h3>
          <span class="short-id">{spool.short_id}</span> {spool.material}
        </h3>
        {low && (
          <span class="badge" data-state="low">
            {s.low}
          </span>
        )}
      </div>
      <p class="muted">{[spool.vendor, spool.name, spool.color_hex?.toUpperCase()].filter(Boolean).join(' · ')}</p>
      <div class="weight">
        <meter
          class="bar"
          min={0}
          max={spool.initial_weight_g}
          value={spool.remaining_weight_g}
          aria-label={s.remaining(spool.remaining_weight_g, spool.initial_weight_g)}
          data-low={low ? 'true' : undefined}
        />
        <span>{s.remaining(spool.remaining_weight_g, spool.initial_weight_g)}</span>
      </div>
      <p>{where}</p>
      <BlobImage load={loadQr} alt={s.qrOf(spool.short_id)} className="qr" size={96} />
      <div class="buttons">
        <button type="button" onClick={onLabel}>
          {s.printLabel}
        </button>
        {canPrint.value && (
          <>
            <button type="button" aria-label={s.editOf(spool.short_id)} onClick={onEdit}>
              {s.edit}
            </button>
            <button type="button" aria-label={s.assignOf(spool.short_id)} onClick={onAssign}>
              {s.assign}
            </button>
          </>
        )}
        {can('admin') && (
          <button type="button" class="danger" onClick={() => window.confirm(s.confirmRemove(spool.short_id)) && onRemove()}>
            {s.remove}
          </button>
        )}
      </div>
    </li>
  );
}
