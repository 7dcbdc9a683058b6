/** The history's filter form: printer, state, user, dates, material, file name, sort and order. */
import { t } from '../texts';
import { type PageQuery, SORTS, STATES } from './query';
import { Options } from '../options';

const h = t.history;

export function HistoryFilters({
  current,
  printers,
  onApply,
}: {
  current: PageQuery;
  printers: Array<{ id: string; name: string }>;
  onApply: (next: PageQuery) => void;
}) {
  const f = current.filters;
  const submit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const filters: Record<string, string> = {};
    for (const name of ['printer_id', 'state', 'user', 'from', 'to', 'material', 'q']) if (text(name) !== '') filters[name] = text(name);
    onApply({
      filters: filters as PageQuery['filters'],
      sort: SORTS.find((s) => s === text('sort')) ?? 'started_at',
      order: text('order') === 'asc' ? 'asc' : 'desc',
      offset: 0,
    });
  };
  return (
    <form class="filters" onSubmit={submit} aria-label={h.filters} key={JSON.stringify(current)}>
      <div class="field">
        <label for="h-printer">{h.printer}</label>
        <select id="h-printer" name="printer_id" value={f.printer_id ?? ''}>
          <option value="">{h.any}</option>
          <Options items={printers} />
        </select>
      </div>
      <div class="field">
        <label for="h-state">{h.state}</label>
        <select id="h-state" name="state" value={f.state ?? ''}>
          <option value="">{h.any}</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {h.states[s]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="h-user">{h.user}</label>
        <input id="h-user" name="user" type="text" value={f.user ?? ''} />
      </div>
      <div class="field">
        <label for="h-from">{h.from}</label>
        <input id="h-from" name="from" type="date" value={f.from ?? ''} />
      </div>
      <div class="field">
        <label for="h-to">{h.to}</label>
        <input id="h-to" name="to" type="date" value={f.to ?? ''} />
      </div>
      <div class="field">
        <label for="h-material">{h.material}</label>
        <input id="h-material" name="material" type="text" value={f.material ?? ''} />
      </div>
      <div class="field">
        <label for="h-q">{h.text}</label>
        <input id="h-q" name="q" type="search" value={f.q ?? ''} />
      </div>
      <div class="field">
        <label for="h-sort">{h.sort}</label>
        <select id="h-sort" name="sort" value={current.sort}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {h.sorts[s]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="h-order">{h.order}</label>
        <select id="h-order" name="order" value={current.order}>
          <option value="desc">{h.orders.desc}</option>
          <option value="asc">{h.orders.asc}</option>
        </select>
      </div>
      <div class="filter-buttons">
        <button type="submit" class="primary">
          {h.apply}
        </button>
        <button type="button" onClick={() => onApply({ filters: {}, sort: 'started_at', order: 'desc', offset: 0 })}>
          {h.reset}
        </button>
      </div>
    </form>
  );
}
