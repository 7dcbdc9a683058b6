/**
 * Counts by state that double as the filter: each group is a toggle button with its count. The
 * buttons read only their own count, so they re-render when a number changes, not on every
 * temperature.
 */
import { t } from '../texts';
import { STATE_GROUPS, type FleetStore, type StateGroup } from './store';

function FilterButton({ store, group, onPick }: { store: FleetStore; group: StateGroup | null; onPick: (g: StateGroup | null) => void }) {
  const count = group === null ? store.total.value : store.count(group).value;
  const pressed = store.filter.value === group;
  return (
    <button type="button" class="filter" data-group={group ?? 'all'} aria-pressed={pressed} onClick={() => onPick(group)}>
      <span class="filter-label">{group === null ? t.fleet.all : t.fleet.groups[group]}</span>
      <span class="filter-count">{count}</span>
    </button>
  );
}

export function SummaryBar({ store, onPick }: { store: FleetStore; onPick: (g: StateGroup | null) => void }) {
  return (
    <nav class="summary" aria-label={t.fleet.summaryLabel}>
      <FilterButton store={store} group={null} onPick={onPick} />
      {STATE_GROUPS.map((group) => (
        <FilterButton key={group} store={store} group={group} onPick={onPick} />
      ))}
    </nav>
  );
}
