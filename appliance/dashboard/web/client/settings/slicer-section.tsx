/**
 * The slicer service integration: enabled, URL and token (the token shown only as set or not; an
 * empty field keeps it, "Remove" clears it), the live status with the admin's detail of a failure,
 * and a check now.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, fieldErrors, reason } from '../api/client';
import { Field } from '../form-field';
import { refreshSlicerStatus, slicerStatus } from '../shell/slicer-status';
import { t } from '../texts';
import { OutcomeLine, Section, type Outcome } from './section';

const KEEP_TOKEN = '***';

export function SlicerSection() {
  const enabled = useSignal(false);
  const url = useSignal('');
  const token = useSignal('');
  const errors = useSignal<Record<string, string>>({});
  const outcome = useSignal<Outcome | null>(null);
  const loaded = useSignal(false);

  useEffect(() => {
    refreshSlicerStatus(true).then(() => {
      const status = slicerStatus.value;
      if (status !== null) {
        enabled.value = status.enabled;
        url.value = status.url;
      }
      loaded.value = true;
    });
  }, []);

  const configure = async (body: { enabled?: boolean; url?: string; token?: string }) => {
    errors.value = {};
    outcome.value = null;
    try {
      const status = await api('POST /api/slicer/remote/configure', { body });
      slicerStatus.value = status;
      token.value = '';
      const held = status.overridden.length > 0 ? ` ${t.settings.slicer.overridden(status.overridden.join(', '))}` : '';
      outcome.value = { ok: true, text: `${t.settings.saved}${held}` };
    } catch (err) {
      errors.value = fieldErrors(err);
      if (Object.keys(errors.value).length === 0) outcome.value = { ok: false, text: reason(err, t.errors.network) };
    }
  };
  const save = (event: Event) => {
    event.preventDefault();
    void configure({ enabled: enabled.value, url: url.value.trim(), token: token.value === '' ? KEEP_TOKEN : token.value });
  };

  const status = slicerStatus.value;
  if (loaded.value && status === null) {
    return (
      <Section id="slicer" title={t.settings.slicer.title}>
        <p>{t.settings.slicer.absent}</p>
      </Section>
    );
  }
  return (
    <Section id="slicer" title={t.settings.slicer.title} intro={t.settings.slicer.intro}>
      {status?.enabled && (
        <dl class="facts">
          <dt>{t.settings.slicer.state}</dt>
          <dd data-slicer={status.state}>{t.shell.slicer[status.state]}</dd>
          {status.version !== null && (
            <>
              <dt>{t.settings.slicer.version}</dt>
              <dd>
                {status.version}
                {status.upstream !== null ? ` (${status.upstream})` : ''}
              </dd>
            </>
          )}
          {status.last_check !== null && (
            <>
              <dt>{t.settings.slicer.lastCheck}</dt>
              <dd>{new Date(status.last_check).toLocaleString()}</dd>
            </>
          )}
          {status.error !== null && (
            <>
              <dt>{t.settings.slicer.problem}</dt>
              <dd>{status.error_detail ?? status.error}</dd>
            </>
          )}
        </dl>
      )}
      <form class="form" onSubmit={save}>
        <label class="check">
          <input type="checkbox" checked={enabled.value} onChange={(e) => (enabled.value = (e.currentTarget as HTMLInputElement).checked)} />
          {t.settings.slicer.enabled}
        </label>
        <Field
          id="slicer-url"
          label={t.settings.slicer.url}
          value={url}
          hint={t.settings.slicer.urlHint}
          error={errors.value.url}
          autocomplete="off"
        />
        <Field
          id="slicer-token"
          label={t.settings.slicer.token}
          value={token}
          type="password"
          required={false}
          autocomplete="off"
          hint={status?.token_set === true ? t.settings.secretSet : t.settings.secretUnset}
          error={errors.value.token}
        />
        <div class="row-actions">
          <button type="submit" class="primary">
            {t.settings.save}
          </button>
          {status?.token_set === true && (
            <button type="button" onClick={() => void configure({ token: '' })}>
              {t.settings.slicer.removeToken}
            </button>
          )}
          <button type="button" onClick={() => void refreshSlicerStatus(true)}>
            {t.settings.slicer.checkNow}
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome.value} />
    </Section>
  );
}
