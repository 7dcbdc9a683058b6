/**
 * The spools page: filters (material, colour, location, low stock, text), one card per spool with
 * its remaining weight, place and QR code; create / edit, assignment to a printer's slot, the
 * printable label; the storage locations with their climate. `/spools/<id>` (the QR code's link)
 * opens that spool. Live over `spool.update` and `inventory.climate`.
 */
import { computed, useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { api, reason } from '../api/client';
import { canPrint } from '../api/session';
import { live } from '../app-live';
import type { RouteParams } from '../routes';
import { AssignSlot } from '../spools/assign';
import { Locations } from '../spools/locations';
import { SpoolCard, spoolWhere } from '../spools/spool-card';
import { SpoolForm } from '../spools/spool-form';
import { type ClimateEvent, type Spool, SpoolsStore } from '../spools/store';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

const s = t.spools;

type Panel = { kind: 'create' } | { kind: 'edit'; spool: Spool } | { kind: 'assign'; spool: Spool } | null;

/**
 * The label opens in a new window through a short-lived link (a window cannot send the session's
 * header, and a blob: copy would inherit the app's CSP, which refuses the label's own style). The
 * window is opened at the click, before the link is fetched, so a popup blocker lets it through.
 */
async function openLabel(spool: Spool): Promise<void> {
  const win = window.open('', '_blank');
  try {
    const { url } = await api('POST /api/inventory/spools/{id}/label-link', { path: { id: spool.id } });
    if (win === null) window.location.assign(url);
    else win.location.href = url;
  } catch (err) {
    win?.close();
    throw err;
  }
}

export function SpoolsPage({ params }: { params: RouteParams }) {
  const store = useMemo(() => new SpoolsStore(), []);
  const problem = useSignal<string | null>(null);
  const notice = useSignal<string | null>(null);
  const panel = useSignal<Panel>(null);
  const filter = useSignal({ material: '', colour: '', location: '', low: false, text: '' });
  const selected = params.id === undefined ? null : Number(params.id);

  const reload = () =>
    store.load().then(
      () => {
        problem.value = null;
      },
      (err: unknown) => {
        problem.value = s.loadFailed(reason(err, t.errors.network));
      },
    );

  useEffect(() => {
    const offs = [
      live.onOpen(() => void reload()),
      live.on('spool.update', (p) => store.applySpool(p as { spool: Spool; deleted: boolean })),
      live.on('inventory.climate', (p) => store.applyClimate(p as ClimateEvent)),
    ];
    void reload();
    return () => {
      for (const off of offs) off();
    };
  }, []);

  useEffect(() => {
    if (selected !== null && store.loaded.value) document.querySelector(`[data-spool="${selected}"]`)?.scrollIntoView({ block: 'center' });
  }, [selected, store.loaded.value]);

  const visible = useMemo(
    () =>
      computed(() => {
        const f = filter.value;
        const text = f.text.toLowerCase();
        return store.spools.value.filter(
          (sp) =>
            (f.material === '' || sp.material.toLowerCase() === f.material.toLowerCase()) &&
            (f.colour === '' || (sp.color_hex ?? '').toLowerCase() === f.colour) &&
            (f.location === '' || String(sp.location_id) === f.location) &&
            (!f.low || store.lowStock.value.has(sp.id)) &&
            (text === '' || [sp.short_id, sp.material, sp.vendor, sp.name, sp.comment, sp.lot].some((v) => v?.toLowerCase().includes(text))),
        );
      }),
    [],
  );
  const materials = [...new Set(store.spools.value.map((sp) => sp.material))].sort();
  const colours = [...new Set(store.spools.value.map((sp) => sp.color_hex?.toLowerCase()).filter((c): c is string => !!c))].sort();
  const setFilter = (name: string) => (e: Event) => {
    const target = e.currentTarget as HTMLInputElement;
    filter.value = { ...filter.value, [name]: target.type === 'checkbox' ? target.checked : target.value };
  };
  const done = (message: string) => {
    panel.value = null;
    notice.value = message;
    void reload();
  };
  const open = (next: Panel) => {
    panel.value = next;
    window.setTimeout(() => document.getElementById('spool-form-heading')?.focus(), 0);
  };
  const current = panel.value;

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>{s.title}</h1>
        {canPrint.value && (
          <button type="button" class="primary" onClick={() => open({ kind: 'create' })}>
            {s.add}
          </button>
        )}
      </div>
      <p class="notice" role="status">
        {notice.value ?? ''}
      </p>
      <ProblemAlert message={problem.value} />
      {(current?.kind === 'create' || current?.kind === 'edit') && (
        <SpoolForm
          key={current.kind === 'edit' ? current.spool.id : 'new'}
          spool={current.kind === 'edit' ? current.spool : null}
          locations={store.locations.value}
          onDone={(saved) => done(s.form.saved(saved.short_id))}
          onClose={() => {
            panel.value = null;
          }}
        />
      )}
      {current?.kind === 'assign' && (
        <section class="panel" aria-labelledby="spool-form-heading">
          <h2 id="spool-form-heading" tabIndex={-1}>
            {s.assignOf(current.spool.short_id)}
          </h2>
          <AssignSlot spool={current.spool} printers={store.printers.value} onDone={done} />
          <button
            type="button"
            onClick={() => {
              panel.value = null;
            }}
          >
            {s.form.cancel}
          </button>
        </section>
      )}
      <form class="filters" aria-label={s.filters} onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="f-material">{s.material}</label>
          <select id="f-material" value={filter.value.material} onChange={setFilter('material')}>
            <option value="">{s.any}</option>
            {materials.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-colour">{s.colour}</label>
          <select id="f-colour" value={filter.value.colour} onChange={setFilter('colour')}>
            <option value="">{s.any}</option>
            {colours.map((c) => (
              <option key={c} value={c}>
                {c.toUpperCase()}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-location">{s.location}</label>
          <select id="f-location" value={filter.value.location} onChange={setFilter('location')}>
            <option value="">{s.any}</option>
            {store.locations.value.map((l) => (
              <option key={l.id} value={String(l.id)}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-text">{s.search}</label>
          <input id="f-text" type="search" value={filter.value.text} onInput={setFilter('text')} />
        </div>
        <label class="check">
          <input type="checkbox" checked={filter.value.low} onChange={setFilter('low')} />
          {s.lowStock}
        </label>
      </form>
      {!store.loaded.value && problem.value === null && <p>{t.loading}</p>}
      {store.loaded.value && store.spools.value.length === 0 && <p class="empty">{s.empty}</p>}
      {store.loaded.value && store.spools.value.length > 0 && visible.value.length === 0 && <p class="empty">{s.emptyFilter}</p>}
      <ul class="cards spools">
        {visible.value.map((sp) => (
          <SpoolCard
            key={sp.id}
            spool={sp}
            low={store.lowStock.value.has(sp.id)}
            where={spoolWhere(sp, (id) => store.printerName(id), store.locationName(sp.location_id))}
            selected={sp.id === selected}
            onEdit={() => open({ kind: 'edit', spool: sp })}
            onAssign={() => open({ kind: 'assign', spool: sp })}
            onLabel={() =>
              void openLabel(sp).catch((err: unknown) => {
                problem.value = reason(err, t.errors.network);
              })
            }
            onRemove={() =>
              void api('DELETE /api/filaments/{id}', { path: { id: sp.id } }).then(
                () => void reload(),
                (err: unknown) => {
                  problem.value = reason(err, t.errors.network);
                },
              )
            }
          />
        ))}
      </ul>
      <Locations locations={store.locations.value} version={store.climateVersion.value} />
    </>
  );
}
