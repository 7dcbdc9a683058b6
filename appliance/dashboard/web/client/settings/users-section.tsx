/** Users and their roles: list, add, change a role, set a new password, delete (asking first). */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, fieldErrors, reason, type Ok } from '../api/client';
import { session, type Role } from '../api/session';
import { Field } from '../form-field';
import { t } from '../texts';
import { OutcomeLine, Section, type Outcome } from './section';

type User = Ok<'GET /api/users'>[number];
export const ROLES: readonly Role[] = ['view', 'print', 'admin'];

export function RoleSelect({ id, value, onChange, label }: { id: string; value: Role; onChange: (role: Role) => void; label: string }) {
  return (
    <select id={id} aria-label={label} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as Role)}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t.roles[role]}
        </option>
      ))}
    </select>
  );
}

function UserRow({ user, changed, failed }: { user: User; changed: () => void; failed: (err: unknown) => void }) {
  const password = useSignal('');
  const self = session.value?.username.toLowerCase() === user.username.toLowerCase();
  const update = (body: { role?: Role; password?: string }) =>
    api('PUT /api/users/{id}', { path: { id: user.id }, body }).then(() => {
      password.value = '';
      changed();
    }, failed);
  const remove = () => {
    if (window.confirm(t.settings.users.confirmDelete(user.username))) api('DELETE /api/users/{id}', { path: { id: user.id } }).then(changed, failed);
  };
  return (
    <tr>
      <th scope="row">
        {user.username}
        {self ? ` ${t.settings.users.you}` : ''}
      </th>
      <td>
        <RoleSelect
          id={`role-${user.id}`}
          label={t.settings.users.roleOf(user.username)}
          value={user.role}
          onChange={(role) => void update({ role })}
        />
      </td>
      <td>
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void update({ password: password.value });
          }}
        >
          <input
            type="password"
            autocomplete="new-password"
            aria-label={t.settings.users.newPasswordOf(user.username)}
            value={password.value}
            onInput={(e) => {
              password.value = (e.currentTarget as HTMLInputElement).value;
            }}
          />
          <button type="submit" disabled={password.value === ''}>
            {t.settings.users.setPassword}
          </button>
        </form>
      </td>
      <td>
        <button type="button" class="danger" onClick={remove} disabled={self} aria-label={t.settings.users.deleteOne(user.username)}>
          {t.settings.delete}
        </button>
      </td>
    </tr>
  );
}

export function UsersSection() {
  const users = useSignal<User[]>([]);
  const username = useSignal('');
  const password = useSignal('');
  const role = useSignal<Role>('view');
  const errors = useSignal<Record<string, string>>({});
  const outcome = useSignal<Outcome | null>(null);

  const load = () =>
    api('GET /api/users').then(
      (list) => {
        users.value = list;
      },
      (err: unknown) => {
        outcome.value = { ok: false, text: reason(err, t.errors.network) };
      },
    );
  useEffect(() => void load(), []);
  const failed = (err: unknown) => {
    outcome.value = { ok: false, text: reason(err, t.errors.network) };
  };

  const add = async (event: Event) => {
    event.preventDefault();
    errors.value = {};
    outcome.value = null;
    try {
      const user = await api('POST /api/users', { body: { username: username.value.trim(), password: password.value, role: role.value } });
      outcome.value = { ok: true, text: t.settings.users.added(user.username) };
      username.value = '';
      password.value = '';
      await load();
    } catch (err) {
      errors.value = fieldErrors(err);
      if (Object.keys(errors.value).length === 0) failed(err);
    }
  };

  return (
    <Section id="users" title={t.settings.users.title} intro={t.settings.users.intro}>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t.settings.users.username}</th>
              <th scope="col">{t.settings.users.role}</th>
              <th scope="col">{t.settings.users.password}</th>
              <th scope="col">
                <span class="visually-hidden">{t.settings.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.value.map((user) => (
              <UserRow key={user.id} user={user} changed={() => void load()} failed={failed} />
            ))}
          </tbody>
        </table>
      </div>
      <h3>{t.settings.users.addTitle}</h3>
      <form class="form" onSubmit={add}>
        <Field id="new-username" label={t.settings.users.username} value={username} autocomplete="off" error={errors.value.username} />
        <Field
          id="new-password"
          label={t.settings.users.password}
          value={password}
          type="password"
          autocomplete="new-password"
          error={errors.value.password}
        />
        <div class="field">
          <label for="new-role">{t.settings.users.role}</label>
          <RoleSelect id="new-role" label={t.settings.users.role} value={role.value} onChange={(next) => (role.value = next)} />
        </div>
        <button type="submit" class="primary">
          {t.settings.users.add}
        </button>
      </form>
      <OutcomeLine outcome={outcome.value} />
    </Section>
  );
}
