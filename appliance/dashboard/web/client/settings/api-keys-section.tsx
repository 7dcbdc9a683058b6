/** API keys: list (prefix, role, last use), create (the key shown once, to copy now), revoke (asking first). */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, fieldErrors, reason, type Ok } from '../api/client';
import type { Role } from '../api/session';
import { Field } from '../form-field';
import { t } from '../texts';
import { OutcomeLine, Section, type Outcome } from './section';
import { RoleSelect } from './users-section';

type ApiKey = Ok<'GET /api/api-keys'>[number];

export function ApiKeysSection() {
  const keys = useSignal<ApiKey[]>([]);
  const name = useSignal('');
  const role = useSignal<Role>('view');
  const created = useSignal<{ name: string; key: string } | null>(null);
  const errors = useSignal<Record<string, string>>({});
  const outcome = useSignal<Outcome | null>(null);
  const failed = (err: unknown) => {
    outcome.value = { ok: false, text: reason(err, t.errors.network) };
  };
  const load = () =>
    api('GET /api/api-keys').then((list) => {
      keys.value = list;
    }, failed);
  useEffect(() => void load(), []);

  const create = async (event: Event) => {
    event.preventDefault();
    errors.value = {};
    outcome.value = null;
    try {
      const key = await api('POST /api/api-keys', { body: { name: name.value.trim(), role: role.value } });
      created.value = { name: key.name, key: key.key };
      name.value = '';
      await load();
    } catch (err) {
      errors.value = fieldErrors(err);
      if (Object.keys(errors.value).length === 0) failed(err);
    }
  };
  const revoke = (key: ApiKey) => {
    if (!window.confirm(t.settings.keys.confirmRevoke(key.name))) return;
    api('DELETE /api/api-keys/{id}', { path: { id: key.id } }).then(() => void load(), failed);
  };

  return (
    <Section id="api-keys" title={t.settings.keys.title} intro={t.settings.keys.intro}>
      {keys.value.length === 0 ? (
        <p>{t.settings.keys.none}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t.settings.keys.name}</th>
                <th scope="col">{t.settings.keys.prefix}</th>
                <th scope="col">{t.settings.users.role}</th>
                <th scope="col">{t.settings.keys.lastUsed}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.settings.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.value.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{t.roles[key.role]}</td>
                  <td>{key.last_used_at === null ? t.settings.keys.never : new Date(key.last_used_at).toLocaleString()}</td>
                  <td>
                    <button type="button" class="danger" onClick={() => revoke(key)} aria-label={t.settings.keys.revokeOne(key.name)}>
                      {t.settings.keys.revoke}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {created.value !== null && (
        <div class="note" role="status">
          <p>{t.settings.keys.createdOnce(created.value.name)}</p>
          <p>
            <code class="secret" data-testid="new-api-key">
              {created.value.key}
            </code>
          </p>
          <button
            type="button"
            onClick={() => {
              created.value = null;
            }}
          >
            {t.settings.keys.copied}
          </button>
        </div>
      )}
      <h3>{t.settings.keys.addTitle}</h3>
      <form class="form" onSubmit={create}>
        <Field id="key-name" label={t.settings.keys.name} value={name} hint={t.settings.keys.nameHint} autocomplete="off" error={errors.value.name} />
        <div class="field">
          <label for="key-role">{t.settings.users.role}</label>
          <RoleSelect id="key-role" label={t.settings.users.role} value={role.value} onChange={(next) => (role.value = next)} />
          <p class="hint">{t.settings.keys.roleHint}</p>
        </div>
        <button type="submit" class="primary">
          {t.settings.keys.create}
        </button>
      </form>
      <OutcomeLine outcome={outcome.value} />
    </Section>
  );
}
