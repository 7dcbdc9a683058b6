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
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
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
    'aria-describedby': described,
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {type === 'password' ? <input type="password" {...input} /> : <input type="text" {...input} />}
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
    </div>
  );
}
