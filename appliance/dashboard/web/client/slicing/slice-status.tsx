/**
 * What slices: the slicer service's state in words (not configured, reachable, not usable), so
 * the person knows which backend will slice before they start; and the progress of a slice.
 */
import { t } from '../texts';
import type { SliceProblem, SliceStore } from './store';

export function ServiceLine({ store }: { store: SliceStore }) {
  const status = store.remote.value;
  let text: string;
  let state: string;
  if (status === null || !status.configured) {
    text = t.slice.service.off;
    state = 'off';
  } else if (status.ok === true) {
    text = t.slice.service.ok(status.version ?? status.upstream ?? '?');
    state = 'ok';
  } else if (status.state === 'unknown') {
    text = t.slice.service.checking;
    state = 'unknown';
  } else {
    text = t.slice.service.down(status.error ?? status.state);
    state = 'down';
  }
  return (
    <p class="service-line" data-service={state}>
      <strong>{t.slice.service.label}:</strong> {text}
    </p>
  );
}

export function SliceProgress({ store }: { store: SliceStore }) {
  const progress = store.progress.value;
  if (progress === null) return null;
  return (
    <div class="slice-progress" role="status">
      <label for="slice-progress-bar">{t.slice.progressLabel}</label>
      <progress id="slice-progress-bar" max={100} value={progress.pct} />
      <span class="slice-stage">{t.slice.stage(progress.stage, progress.pct)}</span>
    </div>
  );
}

/** The words for a failed slice, by the API's code. */
export function problemText(problem: SliceProblem): string {
  switch (problem.code) {
    case 'ERR_UNSUPPORTED_MODEL':
    case 'ERR_BAD_MODEL':
    case 'ERR_MODEL_OUTSIDE_BED':
    case 'ERR_PAYLOAD_TOO_LARGE':
      return t.slice.problems.model(problem.message);
    case 'ERR_PROFILE_NOT_FOUND':
      return t.slice.problems.profile(problem.message);
    case 'ERR_NETWORK':
      return t.errors.network;
    default:
      return t.slice.problems.failed(problem.message);
  }
}
