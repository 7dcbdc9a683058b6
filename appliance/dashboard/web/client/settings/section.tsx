/** A settings section: a headed card with an id to link to (`/settings#slicer`), and its message line. */
import type { ComponentChildren } from 'preact';

export interface Outcome {
  ok: boolean;
  text: string;
}

export function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ComponentChildren }) {
  return (
    <section class="settings-section" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {intro !== undefined && <p class="hint">{intro}</p>}
      {children}
    </section>
  );
}

/** What the last action of a section did: a polite status when it worked, an alert when it did not. */
export function OutcomeLine({ outcome }: { outcome: Outcome | null }) {
  if (outcome === null) return null;
  return outcome.ok ? (
    <p class="ok-text" role="status">
      {outcome.text}
    </p>
  ) : (
    <p class="error-text" role="alert">
      {outcome.text}
    </p>
  );
}
