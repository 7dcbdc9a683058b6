/**
 * First run: while the box has no admin, create one (POST /api/auth/setup, with the setup code
 * when the box lost its users), log in as them, name the box (PATCH /api/settings), then a short
 * guide to the next steps. A name the server refuses after the admin exists is reported on the
 * guide, with the settings page as the place to fix it.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, fieldErrors, reason } from '../api/client';
import { login, session } from '../api/session';
import { boxName } from '../shell/box';
import { Field } from '../form-field';
import { followLink, navigate } from '../router';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

/** The setting's limit (settings/schema.ts box.name), checked here before the admin is created. */
const BOX_NAME_MAX = 40;

function Guide({ nameProblem }: { nameProblem: string | null }) {
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>{t.setup.doneTitle}</h1>
      <p>{t.setup.doneIntro(session.value?.username ?? '')}</p>
      {nameProblem !== null && (
        <p class="error-text" role="alert">
          {t.setup.nameNotSet(nameProblem)}{' '}
          <a href="/settings" onClick={followLink}>
            {t.nav.settings}
          </a>
        </p>
      )}
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
  const name = useSignal(t.appName);
  const nameProblem = useSignal<string | null>(null);
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
    const box = name.value.trim();
    if (box.length === 0 || box.length > BOX_NAME_MAX) {
      errors.value = { box_name: t.setup.boxNameLength(BOX_NAME_MAX) };
      return;
    }
    busy.value = true;
    try {
      const admin = username.value.trim();
      await api('POST /api/auth/setup', {
        body: { username: admin, password: password.value, setup_code: codeRequired.value ? setupCode.value : undefined },
      });
      await login(admin, password.value);
      try {
        const saved = await api('PATCH /api/settings', { body: { box: { name: box } } });
        boxName.value = (saved.values as { box: { name: string } }).box.name;
      } catch (err) {
        nameProblem.value = reason(err, t.errors.network);
      }
      done.value = true;
    } catch (err) {
      errors.value = fieldErrors(err);
      if (Object.keys(errors.value).length === 0) error.value = reason(err, t.errors.network);
    } finally {
      busy.value = false;
    }
  };

  if (done.value) return <Guide nameProblem={nameProblem.value} />;
  return (
    <section class="narrow">
      <h1 tabIndex={-1}>{t.setup.title}</h1>
      <p>{codeRequired.value ? t.setup.codeIntro : t.setup.intro}</p>
      <form onSubmit={submit} class="form">
        <Field id="box_name" label={t.setup.boxName} value={name} autocomplete="off" hint={t.setup.boxNameHint} error={errors.value.box_name} />
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
        <ProblemAlert message={error.value} />
        <button type="submit" class="primary" disabled={busy.value}>
          {t.setup.submit}
        </button>
      </form>
    </section>
  );
}
