/**
 * What to do with a slice: start it on an idle printer that prints its kind of file (the
 * slice-and-send path: the model is sliced again, for that printer, through the same fallback
 * chain, and started), or add the sliced file to the queue, whose dispatcher picks the printer.
 */
import { useSignal } from '@preact/signals';
import { reason } from '../api/client';
import { t } from '../texts';
import type { PrinterView, SliceResult, SliceStore } from './store';

/** A printer that can start a print now. */
const READY_STATES = new Set(['idle', 'finished']);

/** Bambu Lab printers start `.gcode.3mf` projects, the others plain G-code. */
function printsFormat(printer: PrinterView, format: SliceResult['format']): boolean {
  return printer.type.startsWith('bambu') === (format === 'gcode.3mf');
}

export function SendPanel({ store, result }: { store: SliceStore; result: SliceResult }) {
  const printers = store.printers.value.filter((p) => printsFormat(p, result.format));
  const ready = printers.filter((p) => READY_STATES.has(p.status.state));
  const chosen = useSignal('');
  const copies = useSignal('1');
  const busy = useSignal<'send' | 'queue' | null>(null);
  const message = useSignal<{ ok: boolean; text: string } | null>(null);
  const target = ready.some((p) => p.id === chosen.value) ? chosen.value : (ready[0]?.id ?? '');

  const send = async (event: Event) => {
    event.preventDefault();
    if (target === '') return;
    busy.value = 'send';
    message.value = null;
    try {
      const sent = await store.sendToPrinter(target);
      message.value = { ok: true, text: t.slice.sent(sent.printer.name, sent.remote_name) };
    } catch (err) {
      message.value = { ok: false, text: t.slice.problems.printer(reason(err, t.errors.network)) };
    } finally {
      busy.value = null;
    }
  };

  const queue = async (event: Event) => {
    event.preventDefault();
    busy.value = 'queue';
    message.value = null;
    try {
      const count = Math.max(1, Math.min(1000, Math.round(Number(copies.value)) || 1));
      const job = await store.addToQueue(count);
      message.value = { ok: true, text: t.slice.queued(job.name, count) };
    } catch (err) {
      message.value = { ok: false, text: t.slice.problems.queue(reason(err, t.errors.network)) };
    } finally {
      busy.value = null;
    }
  };

  return (
    <section class="slice-step slice-send" aria-labelledby="slice-send-title">
      <h2 id="slice-send-title">{t.slice.send}</h2>
      <div class="send-forms">
        <form class="form" onSubmit={send}>
          <div class="field">
            <label for="slice-target">{t.slice.printer}</label>
            <select
              id="slice-target"
              value={target}
              disabled={ready.length === 0}
              onChange={(e) => {
                chosen.value = (e.currentTarget as HTMLSelectElement).value;
              }}
            >
              {printers.map((p) => (
                <option key={p.id} value={p.id} disabled={!READY_STATES.has(p.status.state)}>
                  {t.slice.printerOption(p.name, t.printer.states[p.status.state] ?? p.status.state)}
                </option>
              ))}
            </select>
            {ready.length === 0 && <p class="hint">{t.slice.noIdle}</p>}
          </div>
          <button type="submit" class="primary" disabled={busy.value !== null || target === ''}>
            {busy.value === 'send' ? t.slice.sending : t.slice.sendButton}
          </button>
        </form>
        <form class="form" onSubmit={queue}>
          <div class="field">
            <label for="slice-copies">{t.slice.copies}</label>
            <input
              id="slice-copies"
              type="number"
              min={1}
              max={1000}
              value={copies.value}
              onInput={(e) => {
                copies.value = (e.currentTarget as HTMLInputElement).value;
              }}
            />
          </div>
          <button type="submit" disabled={busy.value !== null}>
            {t.slice.queueButton}
          </button>
        </form>
      </div>
      {message.value !== null && (
        <p class={message.value.ok ? 'note' : 'error-text'} role={message.value.ok ? 'status' : 'alert'}>
          {message.value.text}
        </p>
      )}
    </section>
  );
}
