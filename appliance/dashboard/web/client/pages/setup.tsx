/**
 * First run: while the box has no admin, create one (POST /api/auth/setup, with the setup code
 * when the box lost its users), log in as them, then a short guide to the next steps. The box's
 * name is not asked for: the API has no setting for it yet (the page says so).
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, ApiError, reason } from '../api/client';
import { login, session } from '../api/session';
import { Field } from '../form-field';
import { followLink, navigate } from '../router';
import { t } from '../texts';

/** The API's field errors by field (`body/password` → password). */
function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) for (const d of err.details) out[d.path.replace(/^body\//, '')] = d.message;
  return out;
}

function Guide() {
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>{t.setup.doneTitle}</h1>
      <p>{t.setup.doneIntro(session.value?.username ?? '')}</p>
      <ol class="guide">
        <li>{t.setup.stepPrinters}</li>
        <li>{t.setup.stepSlicer}</li>
      </ol>
      <p>
        <a href="/api/docs">{t.setup.apiDocs}</a>
      </p>
      <p>
        <a class="button primary" href="/" onClick={followLink}>
          {t.setup.toFleet}
        </a>
      </p>
    </section>
  );
}

export function SetupPage() {
  const codeRequired = useSignal(false);
  const username = useSignal('admin');
  const password = useSignal('');
  const repeat = useSignal('');
  const setupCode = useSignal('');
  const errors = useSignal<Record<string, string>>({});
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const done = useSignal(false);

  useEffect(() => {
    api('GET /api/auth/setup').then(
      (state) => {
        if (!state.needed) navigate('/login', true);
        codeRequired.value = state.setup_code_required;
      },
      (err: unknown) => {
        error.value = reason(err, t.errors.network);
      },
    );
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    errors.value = {};
    error.value = null;
    if (password.value !== repeat.value) {
      errors.value = { repeat: t.setup.mismatch };
      return;
    }
    busy.value = true;
    try {
      const name = username.value.trim();
      await api('POST /api/auth/setup', {
        body: { username: name, password: password.value, setup_code: codeRequired.value ? setupCode.value : undefined },
      });
      await login(name, password.value);
      done.value = true;
    } catch (err) {
      errors.value = fieldErrors(err);
      if (Object.keys(errors.value).length === 0) error.value = reason(err, t.errors.network);
    } finally {
      busy.value = false;
    }
  };

  if (done.value) return <Guide />;
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>{t.setup.title}</h1>
      <p>{codeRequired.value ? t.setup.codeIntro : t.setup.intro}</p>
      <form onSubmit={submit} class="form">
        <Field
          id="username"
          label={t.setup.username}
          value={username}
          autocomplete="username"
          hint={t.setup.usernameHint}
          error={errors.value.username}
        />
        <Field
          id="password"
          label={t.setup.password}
          value={password}
          type="password"
          autocomplete="new-password"
          hint={t.setup.passwordHint}
          error={errors.value.password}
          autofocus
        />
        <Field id="repeat" label={t.setup.repeat} value={repeat} type="password" autocomplete="new-password" error={errors.value.repeat} />
        {codeRequired.value && (
          <Field id="setup_code" label={t.setup.setupCode} value={setupCode} autocomplete="off" error={errors.value.setup_code} />
        )}
        {error.value !== null && (
          <p class="error-text" role="alert">
            {error.value}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy.value}>
          {t.setup.submit}
        </button>
      </form>
      <p class="hint">{t.setup.boxName}</p>
    </section>
  );
}
