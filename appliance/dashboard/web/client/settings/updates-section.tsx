/**
 * OS updates (`GET /api/system/update`): the booted slot, both slots' versions and health, the last
 * update. Admins upload a bundle (its upload's progress from the browser, then RAUC's install
 * progress from the live feed's `system.update` events), see a refusal's reason, and reboot into
 * an installed update.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, reason, type Ok } from '../api/client';
import { can } from '../api/session';
import { uploadFile } from '../api/upload';
import { live } from '../app-live';
import { t } from '../texts';
import { type Outcome, OutcomeLine, Section } from './section';

type UpdateState = Ok<'GET /api/system/update'>;
type Progress = NonNullable<UpdateState['busy']>;

const u = t.settings.updates;

export function UpdatesSection() {
  const state = useSignal<UpdateState | null>(null);
  const outcome = useSignal<Outcome | null>(null);
  const file = useSignal<File | null>(null);
  const allowDowngrade = useSignal(false);
  const sent = useSignal<number | null>(null);
  const progress = useSignal<Progress | null>(null);

  const load = () =>
    api('GET /api/system/update').then(
      (answer) => {
        state.value = answer;
        if (answer.busy !== null) progress.value = answer.busy;
      },
      (err: unknown) => {
        outcome.value = { ok: false, text: reason(err, t.errors.network) };
      },
    );

  useEffect(() => {
    void load();
    const off = live.on('system.update', (payload) => {
      const p = payload as Progress;
      // A refusal's reason is the uploader's answer; here it only ends the progress.
      progress.value = p.phase === 'refused' ? null : p;
      if (p.phase === 'installed') {
        outcome.value = { ok: true, text: u.installedNote(p.version ?? '') };
        void load();
      } else if (p.phase === 'failed') {
        outcome.value = { ok: false, text: `${u.phases.failed}: ${p.error ?? ''}` };
        void load();
      }
    });
    return off;
  }, []);

  const install = async (event: Event) => {
    event.preventDefault();
    const bundle = file.value;
    if (bundle === null) return;
    outcome.value = null;
    progress.value = null;
    sent.value = 0;
    const query = allowDowngrade.value ? '?allow_downgrade=true' : '';
    try {
      await uploadFile(`/api/system/update${query}`, bundle, (done, total) => {
        sent.value = total > 0 ? Math.round((done / total) * 100) : null;
      });
    } catch (err) {
      outcome.value = { ok: false, text: reason(err, t.errors.network) };
    } finally {
      sent.value = null;
    }
  };

  const reboot = async () => {
    try {
      await api('POST /api/system/update/reboot');
      outcome.value = { ok: true, text: u.rebooting };
    } catch (err) {
      outcome.value = { ok: false, text: reason(err, t.errors.network) };
    }
  };

  const view = state.value;
  const admin = can('admin');
  const running = progress.value !== null && ['receiving', 'checking', 'installing'].includes(progress.value.phase);
  const busy = running || sent.value !== null;
  return (
    <Section id="updates" title={u.title} intro={u.intro}>
      {view !== null && !view.available && <p class="warn-text">{u.unavailable(view.problem ?? '')}</p>}
      {view?.available && (
        <>
          <p class="booted-slot">{u.booted(view.booted ?? '?', view.running_version)}</p>
          {/* Four narrow columns fit a phone without scrolling; the install's time is in the last update's line. */}
          <table class="update-slots" aria-label={u.slotsLabel}>
            <thead>
              <tr>
                <th scope="col">{u.slot}</th>
                <th scope="col">{u.state}</th>
                <th scope="col">{u.version}</th>
                <th scope="col">{u.health}</th>
              </tr>
            </thead>
            <tbody>
              {view.slots.map((slot) => (
                <tr key={slot.name} data-slot={slot.bootname ?? slot.name}>
                  <td>{slot.bootname ?? slot.name}</td>
                  <td>{slot.bootname === view.booted ? u.booted_ : u.other}</td>
                  <td>{slot.version ?? u.factory}</td>
                  <td>{slot.boot_status ?? '?'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {view.last !== null && (
            <p class="last-update">
              {u.last(view.last.version, u.results[view.last.result] ?? view.last.result, new Date(view.last.started_at).toLocaleString())}
            </p>
          )}
        </>
      )}
      {sent.value !== null && (
        <p>
          <label>
            {u.uploading(sent.value)} <progress max={100} value={sent.value} />
          </label>
        </p>
      )}
      {running && progress.value !== null && (
        <p class="update-progress" role="status">
          <label>
            {u.phases[progress.value.phase] ?? progress.value.phase}
            {progress.value.phase === 'installing' ? `: ${progress.value.message}` : ''}{' '}
            <progress max={100} value={progress.value.percent ?? undefined} aria-label={u.progressLabel} />
          </label>
        </p>
      )}
      <OutcomeLine outcome={outcome.value} />
      {admin && view?.available && (
        <>
          <form class="update-form" onSubmit={install}>
            <label>
              {u.bundle}
              <input
                type="file"
                accept=".raucb"
                disabled={busy}
                onChange={(event) => {
                  file.value = (event.currentTarget as HTMLInputElement).files?.[0] ?? null;
                }}
              />
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={allowDowngrade.value}
                onChange={(event) => {
                  allowDowngrade.value = (event.currentTarget as HTMLInputElement).checked;
                }}
              />
              {u.allowDowngrade}
            </label>
            <button type="submit" disabled={busy || file.value === null}>
              {u.install}
            </button>
          </form>
          {view.reboot_required && (
            <button type="button" class="danger" onClick={() => void reboot()}>
              {u.reboot}
            </button>
          )}
        </>
      )}
    </Section>
  );
}
