/**
 * One generator: its title and description, and a form built from its JSON Schema with every
 * default filled in (numbers with their bounds, step and unit; lists as selects; yes/no as
 * checkboxes; point lists as text checked here first). A generator that takes a file has a picture
 * input. The server's refusal is shown beside the form and on the fields it names.
 */
import { useSignal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import { fieldErrors, reason } from '../api/client';
import { t } from '../texts';
import { describedBy, FieldNotes } from '../form-field';
import { defaultText, type FormField, formFields, parseField } from './schema-fields';
import type { Generator, ModelsStore } from './store';

const m = t.models;
const PARSE_ERRORS = { number: m.invalidNumber, json: m.invalidJson, points: m.invalidPoints };

function FieldInput({
  id,
  field,
  value,
  onValue,
  error,
}: {
  id: string;
  field: FormField;
  value: string;
  onValue: (v: string) => void;
  error?: string;
}) {
  const common = { id, name: field.name, 'aria-describedby': describedBy(id, field.hint, error), 'aria-invalid': error ? true : undefined };
  const read = (e: Event) => onValue((e.currentTarget as HTMLInputElement).value);
  let input: preact.JSX.Element;
  if (field.kind === 'checkbox') {
    input = (
      <input
        type="checkbox"
        {...common}
        checked={value === 'true'}
        onChange={(e) => onValue(String((e.currentTarget as HTMLInputElement).checked))}
      />
    );
  } else if (field.kind === 'select') {
    input = (
      <select {...common} value={value} onChange={read}>
        {(field.property.enum ?? []).map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'number') {
    input = (
      <input type="number" {...common} value={value} min={field.property.minimum} max={field.property.maximum} step={field.step} onInput={read} />
    );
  } else if (field.kind === 'text') {
    input = <input type="text" {...common} value={value} maxLength={field.property.maxLength} onInput={read} />;
  } else {
    input = <textarea {...common} rows={field.kind === 'long-text' ? 4 : 3} spellcheck={false} value={value} onInput={read} />;
  }
  return (
    <div class={`field gen-field gen-${field.kind}`}>
      <label for={id}>
        {field.label}
        {field.unit !== null && <span class="unit"> ({field.unit})</span>}
      </label>
      {input}
      <FieldNotes id={id} hint={field.hint} error={error} />
    </div>
  );
}

export function GeneratorCard({ store, generator }: { store: ModelsStore; generator: Generator }) {
  const fields = useMemo(() => formFields(generator.parameters), [generator]);
  const values = useSignal<Record<string, string>>(Object.fromEntries(fields.map((f) => [f.name, defaultText(f)])));
  const errors = useSignal<Record<string, string>>({});
  const file = useSignal<File | null>(null);
  const busy = useSignal(false);
  const open = useSignal(false);
  const message = useSignal<{ ok: boolean; text: string } | null>(null);
  const base = `gen-${generator.id}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    message.value = null;
    const body: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    for (const field of fields) {
      const parsed = parseField(field, values.value[field.name] ?? '');
      if (parsed.ok) body[field.name] = parsed.value;
      else found[field.name] = PARSE_ERRORS[parsed.error];
    }
    if (generator.upload !== null && file.value === null) found.picture = m.pictureNeeded;
    errors.value = found;
    if (Object.keys(found).length > 0) {
      open.value = open.value || Object.keys(found).some((name) => name !== 'picture');
      message.value = { ok: false, text: m.refused(Object.values(found)[0]) };
      return;
    }
    busy.value = true;
    try {
      await store.generate(generator, body, file.value);
      message.value = { ok: true, text: m.queued(generator.title) };
    } catch (err) {
      const named = fieldErrors(err);
      // An upload's options are query parameters: `query/width` names the field `width`.
      errors.value = Object.fromEntries(Object.entries(named).map(([path, text]) => [path.replace(/^query\//, ''), text]));
      // The fields the refusal names are shown, with their reasons.
      if (Object.keys(errors.value).some((name) => fields.some((f) => f.name === name))) open.value = true;
      message.value = { ok: false, text: m.refused(reason(err, t.errors.network)) };
    } finally {
      busy.value = false;
    }
  };

  return (
    <section class="gen-card" aria-labelledby={`${base}-title`} data-generator={generator.id}>
      <h3 id={`${base}-title`}>{generator.title}</h3>
      <p class="hint">{generator.description}</p>
      <form class="form" onSubmit={submit} noValidate>
        {generator.upload !== null && (
          <div class="field">
            <label for={`${base}-file`}>{m.picture}</label>
            <input
              id={`${base}-file`}
              type="file"
              accept={generator.upload.media_type}
              aria-invalid={errors.value.picture ? true : undefined}
              onChange={(e) => {
                file.value = (e.currentTarget as HTMLInputElement).files?.[0] ?? null;
              }}
            />
          </div>
        )}
        <details
          class="gen-parameters"
          open={open.value}
          onToggle={(e) => {
            open.value = (e.currentTarget as HTMLDetailsElement).open;
          }}
        >
          <summary>{m.parameters}</summary>
          <div class="gen-fields">
            {fields.map((field) => (
              <FieldInput
                key={field.name}
                id={`${base}-${field.name}`}
                field={field}
                value={values.value[field.name] ?? ''}
                error={errors.value[field.name]}
                onValue={(v) => {
                  values.value = { ...values.value, [field.name]: v };
                }}
              />
            ))}
          </div>
        </details>
        <div class="gen-go">
          <button type="submit" class="primary" disabled={busy.value} aria-describedby={message.value ? `${base}-message` : undefined}>
            {busy.value ? m.generating : m.generate}
          </button>
          {message.value !== null && (
            <p id={`${base}-message`} class={message.value.ok ? 'note' : 'error-text'} role={message.value.ok ? 'status' : 'alert'}>
              {message.value.text}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
