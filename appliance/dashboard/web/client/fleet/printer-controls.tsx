/**
 * The card's buttons for people who may drive printers (print role and up): pause, resume and
 * stop by state, and "plate cleared" for a finished print. The page hides them for view users;
 * the server refuses them anyway.
 */
import { useSignal } from '@preact/signals';
import { api, reason } from '../api/client';
import { t } from '../texts';
import type { PrinterEntry } from './store';
import { ProblemAlert } from '../problem-alert';

type Action = 'pause' | 'resume' | 'stop' | 'plate';

export function PrinterControls({ entry }: { entry: PrinterEntry }) {
  const busy = useSignal<Action | null>(null);
  const failure = useSignal<string | null>(null);
  const state = entry.status.value.state;
  const name = entry.view.value.name;

  const run = async (action: Action) => {
    if (action === 'stop' && !window.confirm(t.printer.confirmStop(name))) return;
    busy.value = action;
    failure.value = null;
    try {
      if (action === 'plate') await api('POST /api/printers/{id}/plate-cleared', { path: { id: entry.id } });
      else await api('POST /api/printers/{id}/control', { path: { id: entry.id }, body: { action } });
    } catch (err) {
      failure.value = t.printer.actionFailed(reason(err, t.errors.network));
    } finally {
      busy.value = null;
    }
  };

  const buttons: Array<[Action, string]> = [];
  if (state === 'printing' || state === 'preparing') buttons.push(['pause', t.printer.pause]);
  if (state === 'paused') buttons.push(['resume', t.printer.resume]);
  if (state === 'printing' || state === 'preparing' || state === 'paused') buttons.push(['stop', t.printer.stop]);
  if (state === 'finished' || state === 'idle') buttons.push(['plate', t.printer.plateCleared]);
  if (buttons.length === 0) return null;
  return (
    <div class="controls">
      {buttons.map(([action, label]) => (
        <button
          key={action}
          type="button"
          class={action === 'stop' ? 'danger' : undefined}
          disabled={busy.value !== null}
          onClick={() => void run(action)}
          aria-label={`${label}: ${name}`}
        >
          {label}
        </button>
      ))}
      <ProblemAlert message={failure.value} />
    </div>
  );
}
