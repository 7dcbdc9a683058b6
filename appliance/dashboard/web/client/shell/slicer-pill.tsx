/** The header's slicer-service indicator: hidden until the integration is configured, hidden again when it is disabled. */
import { can } from '../api/session';
import { followLink } from '../router';
import { t } from '../texts';
import { slicerStatus } from './slicer-status';

export function SlicerPill() {
  const status = slicerStatus.value;
  if (status === null || !status.configured) return null;
  const text = t.shell.slicer[status.state];
  const title = status.error ?? (status.version === null ? undefined : t.shell.slicerVersion(status.version));
  const body = (
    <span class="pill" data-slicer={status.state} title={title}>
      {text}
    </span>
  );
  // Admins go to where it is configured; everyone else only reads it.
  return can('admin') ? (
    <a class="pill-link" href="/settings?section=slicer" onClick={followLink} aria-label={t.shell.slicerLink(text)}>
      {body}
    </a>
  ) : (
    <span role="status">{body}</span>
  );
}
