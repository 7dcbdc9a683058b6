/** The box's name (setting box.name through PATCH /api/settings). */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, fieldErrors, reason } from '../api/client';
import { Field } from '../form-field';
import { boxName } from '../shell/box';
import { t } from '../texts';
import { OutcomeLine, Section, type Outcome } from './section';

export function BoxSection() {
  const name = useSignal(boxName.value ?? '');
  const error = useSignal<string | null>(null);
  const outcome = useSignal<Outcome | null>(null);
  useEffect(() => {
    if (name.value === '' && boxName.value !== null) name.value = boxName.value;
  }, [boxName.value]);

  const save = async (event: Event) => {
    event.preventDefault();
    error.value = null;
    outcome.value = null;
    try {
      const saved = await api('PATCH /api/settings', { body: { box: { name: name.value } } });
      const next = (saved.values as { box: { name: string } }).box.name;
      boxName.value = next;
      name.value = next;
      outcome.value = { ok: true, text: t.settings.saved };
    } catch (err) {
      error.value = fieldErrors(err)['box.name'] ?? null;
      if (error.value === null) outcome.value = { ok: false, text: reason(err, t.errors.network) };
    }
  };

  return (
    <Section id="box" title={t.settings.box.title}>
      <form class="form inline-form" onSubmit={save}>
        <Field id="box-name" label={t.settings.box.name} value={name} hint={t.settings.box.hint} error={error.value} autocomplete="off" />
        <button type="submit" class="primary">
          {t.settings.save}
        </button>
      </form>
      <OutcomeLine outcome={outcome.value} />
    </Section>
  );
}
