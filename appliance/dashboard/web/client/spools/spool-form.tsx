/** Creates or edits a spool (POST / PUT /api/filaments): what it holds, its weights, price, location, comment. */
import { useSignal } from '@preact/signals';
import { api, reason } from '../api/client';
import { t } from '../texts';
import type { Location, Spool } from './store';

const f = t.spools.form;

export function SpoolForm({
  spool,
  locations,
  onDone,
  onClose,
}: {
  spool: Spool | null;
  locations: Location[];
  onDone: (s: Spool) => void;
  onClose: () => void;
}) {
  const problem = useSignal<string | null>(null);
  const noColour = useSignal(spool !== null && spool.color_hex === null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const num = (name: string) => (text(name) === '' ? null : Number(text(name)));
    const body = {
      material: text('material'),
      color_hex: noColour.value ? null : text('color'),
      vendor: text('vendor') || null,
      name: text('name') || null,
      initial_weight_g: num('initial') ?? 1000,
      spool_weight_g: num('tare'),
      price: num('price'),
      location_id: num('location'),
      comment: text('comment') || null,
    };
    try {
      const saved =
        spool === null
          ? await api('POST /api/filaments', { body })
          : await api('PUT /api/filaments/{id}', { path: { id: spool.id }, body: { ...body, remaining_weight_g: num('remaining') ?? 0 } });
      onDone(saved as Spool);
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    }
  };
  return (
    <section class="panel" aria-labelledby="spool-form-heading">
      <h2 id="spool-form-heading" tabIndex={-1}>
        {spool === null ? f.createTitle : f.editTitle(spool.short_id)}
      </h2>
      <form class="form grid-form" onSubmit={submit}>
        <div class="field">
          <label for="s-material">{f.material}</label>
          <input id="s-material" name="material" type="text" required value={spool?.material ?? 'PLA'} />
        </div>
        <div class="field">
          <label for="s-color">{f.colour}</label>
          <input id="s-color" name="color" type="color" value={spool?.color_hex?.slice(0, 7) ?? '#ffffff'} disabled={noColour.value} />
          <label class="check">
            <input
              type="checkbox"
              checked={noColour.value}
              onChange={(e) => {
                noColour.value = (e.currentTarget as HTMLInputElement).checked;
              }}
            />
            {f.noColour}
          </label>
        </div>
        <div class="field">
          <label for="s-vendor">{f.vendor}</label>
          <input id="s-vendor" name="vendor" type="text" value={spool?.vendor ?? ''} />
        </div>
        <div class="field">
          <label for="s-name">{f.name}</label>
          <input id="s-name" name="name" type="text" value={spool?.name ?? ''} />
        </div>
        <div class="field">
          <label for="s-initial">{f.initial}</label>
          <input id="s-initial" name="initial" type="number" min={1} step="any" required value={spool?.initial_weight_g ?? 1000} />
        </div>
        {spool !== null && (
          <div class="field">
            <label for="s-remaining">{f.remaining}</label>
            <input id="s-remaining" name="remaining" type="number" min={0} step="any" value={Math.round(spool.remaining_weight_g * 10) / 10} />
          </div>
        )}
        <div class="field">
          <label for="s-tare">{f.tare}</label>
          <input id="s-tare" name="tare" type="number" min={0} step="any" value={spool?.spool_weight_g ?? ''} />
        </div>
        <div class="field">
          <label for="s-price">{f.price}</label>
          <input id="s-price" name="price" type="number" min={0} step="any" value={spool?.price ?? ''} />
        </div>
        <div class="field">
          <label for="s-location">{f.location}</label>
          <select id="s-location" name="location" value={spool?.location_id === null || spool === null ? '' : String(spool.location_id)}>
            <option value="">{t.spools.noLocation}</option>
            {locations.map((l) => (
              <option key={l.id} value={String(l.id)}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field wide">
          <label for="s-comment">{f.comment}</label>
          <input id="s-comment" name="comment" type="text" value={spool?.comment ?? ''} />
        </div>
        {problem.value !== null && (
          <p class="error-text wide" role="alert">
            {problem.value}
          </p>
        )}
        <div class="wide buttons">
          <button type="submit" class="primary">
            {f.save}
          </button>
          <button type="button" onClick={onClose}>
            {f.cancel}
          </button>
        </div>
      </form>
    </section>
  );
}
