/** A labelled input with its hint and its error, tied together for screen readers. */
import type { Signal } from '@preact/signals';

export interface FieldProps {
  id: string;
  label: string;
  value: Signal<string>;
  type?: 'text' | 'password';
  autocomplete?: string;
  hint?: string;
  error?: string | null;
  required?: boolean;
  autofocus?: boolean;
}

export function Field({ id, label, value, type = 'text', autocomplete, hint, error, required = true, autofocus }: FieldProps) {
  const input = {
    id,
    name: id,
    value: value.value,
    onInput: (e: Event) => {
      value.value = (e.currentTarget as HTMLInputElement).value;
    },
    autocomplete,
    required,
    autoFocus: autofocus,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, hint, error),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {type === 'password' ? <input type="password" {...input} /> : <input type="text" {...input} />}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The ids a field's input names in `aria-describedby`: its hint and its error, when there are. */
export function describedBy(id: string, hint?: string | null, error?: string | null): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** A field's hint and error under its input, with the ids `describedBy` names. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string | null; error?: string | null }) {
  return (
    <>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error-text" id={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}
