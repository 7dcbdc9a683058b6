/** The three profiles of a slice (printer, filament, process) from the catalogue the page uses. */
import type { Signal } from '@preact/signals';
import { t } from '../texts';
import type { ProfileKind, ProfileOption, ProfileSource, SliceStore } from './store';
import { Options } from '../options';

function ProfileSelect({ id, label, options, value }: { id: string; label: string; options: ProfileOption[]; value: Signal<string> }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value.value}
        required
        onChange={(e) => {
          value.value = (e.currentTarget as HTMLSelectElement).value;
        }}
      >
        <option value="">{t.slice.pick}</option>
        <Options items={options} />
      </select>
    </div>
  );
}

export function ProfilePicker({ store, onSource }: { store: SliceStore; onSource: (source: ProfileSource) => void }) {
  const lists = store.profiles.value;
  const fields: Array<[ProfileKind, string, Signal<string>]> = [
    ['printer', t.slice.printerProfile, store.printerProfile],
    ['filament', t.slice.filamentProfile, store.filamentProfile],
    ['process', t.slice.processProfile, store.processProfile],
  ];
  const empty = store.profilesLoaded.value && lists.printer.length === 0;
  return (
    <section class="slice-step" aria-labelledby="slice-profiles-title">
      <h2 id="slice-profiles-title">{t.slice.profiles}</h2>
      {store.remoteUsable.value && (
        <div class="field">
          <label for="slice-source">{t.slice.source}</label>
          <select
            id="slice-source"
            value={store.source.value}
            onChange={(e) => onSource((e.currentTarget as HTMLSelectElement).value as ProfileSource)}
          >
            <option value="remote">{t.slice.sources.remote}</option>
            <option value="native">{t.slice.sources.native}</option>
          </select>
        </div>
      )}
      {empty && <p class="error-text">{t.slice.noProfiles}</p>}
      <div class="profile-fields">
        {fields.map(([kind, label, value]) => (
          <ProfileSelect key={kind} id={`slice-profile-${kind}`} label={label} options={lists[kind]} value={value} />
        ))}
      </div>
    </section>
  );
}
