/**
 * Outgoing notification channels (webhooks): list with the last delivery, add, enable or disable,
 * send a test (the answer shown in words), delete. The signing secret is shown only as set or not;
 * an empty field keeps it.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, fieldErrors, reason, type Ok } from '../api/client';
import { Field } from '../form-field';
import { t } from '../texts';
import { OutcomeLine, Section, type Outcome } from './section';

type Channel = Ok<'GET /api/notifications/channels'>['items'][number];

export function ChannelsSection() {
  const channels = useSignal<Channel[]>([]);
  const name = useSignal('');
  const url = useSignal('');
  const secret = useSignal('');
  const errors = useSignal<Record<string, string>>({});
  const outcome = useSignal<Outcome | null>(null);
  const failed = (err: unknown) => {
    outcome.value = { ok: false, text: reason(err, t.errors.network) };
  };
  const load = () =>
    api('GET /api/notifications/channels').then((list) => {
      channels.value = list.items;
    }, failed);
  useEffect(() => void load(), []);

  const add = async (event: Event) => {
    event.preventDefault();
    errors.value = {};
    outcome.value = null;
    try {
      const channel = await api('POST /api/notifications/channels', {
        body: { type: 'webhook', name: name.value.trim(), url: url.value.trim(), secret: secret.value === '' ? null : secret.value },
      });
      outcome.value = { ok: true, text: t.settings.channels.added(channel.name) };
      name.value = '';
      url.value = '';
      secret.value = '';
      await load();
    } catch (err) {
      errors.value = fieldErrors(err);
      if (Object.keys(errors.value).length === 0) failed(err);
    }
  };
  const test = async (channel: Channel) => {
    outcome.value = null;
    try {
      const result = await api('POST /api/notifications/channels/{id}/test', { path: { id: channel.id } });
      outcome.value = result.ok
        ? { ok: true, text: t.settings.channels.testDelivered(channel.name, result.http_status) }
        : { ok: false, text: t.settings.channels.testFailed(channel.name, result.error ?? String(result.http_status)) };
      await load();
    } catch (err) {
      failed(err);
    }
  };
  const toggle = (channel: Channel) =>
    api('PUT /api/notifications/channels/{id}', { path: { id: channel.id }, body: { enabled: !channel.enabled } }).then(() => void load(), failed);
  const remove = (channel: Channel) => {
    if (!window.confirm(t.settings.channels.confirmDelete(channel.name))) return;
    api('DELETE /api/notifications/channels/{id}', { path: { id: channel.id } }).then(() => void load(), failed);
  };

  return (
    <Section id="channels" title={t.settings.channels.title} intro={t.settings.channels.intro}>
      {channels.value.length === 0 ? (
        <p>{t.settings.channels.none}</p>
      ) : (
        <ul class="plain-list">
          {channels.value.map((channel) => (
            <li key={channel.id} class="channel">
              <div>
                <strong>{channel.name}</strong> <span class="hint">{channel.url}</span>
                <p class="hint">
                  {channel.secret_set ? t.settings.channels.signed : t.settings.channels.unsigned} ·{' '}
                  {channel.last_status === null
                    ? t.settings.channels.neverDelivered
                    : t.settings.channels.last(channel.last_status, channel.last_delivery_at ?? '', channel.last_error)}
                </p>
              </div>
              <div class="row-actions">
                <label class="check">
                  <input type="checkbox" checked={channel.enabled} onChange={() => void toggle(channel)} />
                  {t.settings.channels.enabled}
                </label>
                <button type="button" onClick={() => void test(channel)} aria-label={t.settings.channels.testOne(channel.name)}>
                  {t.settings.channels.test}
                </button>
                <button type="button" class="danger" onClick={() => remove(channel)} aria-label={t.settings.channels.deleteOne(channel.name)}>
                  {t.settings.delete}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <h3>{t.settings.channels.addTitle}</h3>
      <form class="form" onSubmit={add}>
        <Field id="channel-name" label={t.settings.channels.name} value={name} autocomplete="off" error={errors.value.name} />
        <Field
          id="channel-url"
          label={t.settings.channels.url}
          value={url}
          hint={t.settings.channels.urlHint}
          autocomplete="off"
          error={errors.value.url}
        />
        <Field
          id="channel-secret"
          label={t.settings.channels.secret}
          value={secret}
          type="password"
          required={false}
          autocomplete="off"
          hint={t.settings.channels.secretHint}
          error={errors.value.secret}
        />
        <button type="submit" class="primary">
          {t.settings.channels.add}
        </button>
      </form>
      <OutcomeLine outcome={outcome.value} />
    </Section>
  );
}
