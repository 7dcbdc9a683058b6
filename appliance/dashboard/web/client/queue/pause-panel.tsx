/**
 * The queue-wide pause on the queue page: a banner with each reason while paused (whoever paused
 * it: a person, or an automation such as Node-RED's dispatch window), and for print users a
 * reason field with "Pause the queue", or "Resume" per reason and for the whole queue.
 */
import { useSignal } from '@preact/signals';
import { api } from '../api/client';
import { canPrint } from '../api/session';
import { t } from '../texts';
import type { Pause } from './store';

const p = t.queue.pause;

export function PausePanel({ pause, run }: { pause: Pause; run: (work: () => Promise<unknown>) => Promise<void> }) {
  const reasonText = useSignal('');

  const submit = (event: Event) => {
    event.preventDefault();
    const reason = reasonText.value.trim();
    if (reason === '') return;
    void run(async () => {
      await api('POST /api/queue/pause', { body: { reason } });
      reasonText.value = '';
    });
  };
  const resume = (reason?: string) => void run(() => api('POST /api/queue/resume', { body: reason === undefined ? {} : { reason } }));

  if (pause.paused) {
    return (
      <section class="pause-banner" role="status" aria-label={p.banner}>
        <p class="warn-text">{p.banner}</p>
        <ul>
          {pause.reasons.map((r) => (
            <li key={r.reason} data-pause-reason={r.reason}>
              <span>{p.entry(r.reason, r.by, new Date(r.at).toLocaleString())}</span>
              {canPrint.value && pause.reasons.length > 1 && (
                <button type="button" onClick={() => resume(r.reason)}>
                  {p.resumeOne(r.reason)}
                </button>
              )}
            </li>
          ))}
        </ul>
        {canPrint.value && (
          <button type="button" class="primary" onClick={() => resume()}>
            {p.resume}
          </button>
        )}
      </section>
    );
  }
  if (!canPrint.value) return null;
  return (
    <form class="pause-form" onSubmit={submit}>
      <label for="q-pause-reason">{p.label}</label>
      <input
        id="q-pause-reason"
        type="text"
        maxLength={200}
        required
        placeholder={p.placeholder}
        value={reasonText.value}
        onInput={(e) => (reasonText.value = (e.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit">{p.pause}</button>
    </form>
  );
}
