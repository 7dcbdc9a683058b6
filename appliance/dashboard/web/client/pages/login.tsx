/** Login: user name and password; afterwards back to the page in `?next=` (or the fleet). */
import { useSignal } from '@preact/signals';
import { ApiError, reason } from '../api/client';
import { login, loginReason } from '../api/session';
import { Field } from '../form-field';
import { location, navigate } from '../router';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

/** Only a path of this app: never another origin, whatever the link said. */
function safeNext(next: string | null): string {
  // `//host` and `/\host` are other origins to a browser.
  const local = next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') && !next.startsWith('/login');
  return local && next !== null ? next : '/';
}

const NOTES = { expired: t.login.expired, 'logged-out': t.login.loggedOut };

export function LoginPage() {
  const username = useSignal('');
  const password = useSignal('');
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    error.value = null;
    try {
      await login(username.value.trim(), password.value);
      navigate(safeNext(location.value.query.get('next')), true);
    } catch (err) {
      error.value = err instanceof ApiError && err.status === 401 ? err.message : reason(err, t.errors.network);
      password.value = '';
    } finally {
      busy.value = false;
    }
  };

  const note = loginReason.value === null ? null : NOTES[loginReason.value];
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>{t.login.title}</h1>
      {note !== null && (
        <p class="note" role="status">
          {note}
        </p>
      )}
      <form onSubmit={submit} class="form">
        <Field id="username" label={t.login.username} value={username} autocomplete="username" autofocus />
        <Field id="password" label={t.login.password} value={password} type="password" autocomplete="current-password" />
        <ProblemAlert message={error.value} />
        <button type="submit" class="primary" disabled={busy.value}>
          {t.login.submit}
        </button>
      </form>
    </section>
  );
}
