/**
 * A printer type's connection fields, built from the JSON schema `GET /api/printer-types` gives:
 * a choice list for an `enum`, a number field for an integer, a text area for long text (a PEM
 * certificate), a password field for a secret. A secret is never shown: the field starts empty,
 * says whether one is set, and left empty on edit keeps the stored value.
 */
import type { Signal } from '@preact/signals';
import type { Ok } from '../api/client';
import { t } from '../texts';
import { describedBy, FieldNotes } from '../form-field';

export type PrinterType = Ok<'GET /api/printer-types'>['items'][number];

interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
  default?: unknown;
}

/**
 * Text that may be longer than a path (4096, PATH_MAX) is a text area: a PEM certificate is,
 * a serial device path or a host name is not.
 */
const MULTILINE_FROM = 4096;

export interface ConnectionField {
  name: string;
  schema: FieldSchema;
  required: boolean;
  secret: boolean;
}

export function connectionFields(type: PrinterType): ConnectionField[] {
  const schema = type.connection as { properties?: Record<string, FieldSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, field]) => ({
    name,
    schema: field,
    required: (schema.required ?? []).includes(name),
    secret: type.secrets.includes(name),
  }));
}

export function isInteger(field: ConnectionField): boolean {
  return field.schema.type === 'integer' || (Array.isArray(field.schema.type) && field.schema.type.includes('integer'));
}

/** Markdown code marks in the API's descriptions read as plain quotes on the page. */
function plain(text: string | undefined): string | undefined {
  return text?.replace(/`([^`]*)`/g, '$1');
}

export interface FieldsProps {
  type: PrinterType;
  values: Signal<Record<string, string>>;
  errors: Record<string, string>;
  /** Editing: whether each secret is stored now (`<field>_set` of the printer's view). */
  secretsSet: Record<string, boolean> | null;
}

/** A secret on edit says whether one is stored; every other field shows the API's description. */
function hintOf(field: ConnectionField, secretsSet: Record<string, boolean> | null): string | undefined {
  if (!field.secret || secretsSet === null) return plain(field.schema.description);
  return secretsSet[field.name] ? t.printerForm.secretSetKeep : t.printerForm.secretUnset;
}

interface InputProps {
  field: ConnectionField;
  attributes: { id: string; name: string; required: boolean; 'aria-describedby'?: string; 'aria-invalid'?: boolean };
  value: string;
  set: (value: string) => void;
}

function FieldInput({ field, attributes, value, set }: InputProps) {
  const changed = (e: Event) => set((e.currentTarget as HTMLInputElement).value);
  if (field.schema.enum !== undefined) {
    return (
      <select {...attributes} value={value} onChange={changed}>
        {field.schema.enum.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  }
  if (field.secret) return <input {...attributes} type="password" autocomplete="new-password" value={value} onInput={changed} />;
  if ((field.schema.maxLength ?? 0) > MULTILINE_FROM) return <textarea {...attributes} rows={4} value={value} onInput={changed} />;
  if (isInteger(field)) {
    return (
      <input {...attributes} type="number" min={field.schema.minimum} max={field.schema.maximum} autocomplete="off" value={value} onInput={changed} />
    );
  }
  return <input {...attributes} type="text" autocomplete="off" value={value} onInput={changed} />;
}

export function ConnectionFields({ type, values, errors, secretsSet }: FieldsProps) {
  return (
    <fieldset class="connection">
      <legend>{t.printerForm.connection(type.label)}</legend>
      {connectionFields(type).map((field) => {
        const id = `conn-${field.name}`;
        const isSet = secretsSet?.[field.name] ?? false;
        const hint = hintOf(field, secretsSet);
        const error = errors[field.name];
        const attributes = {
          id,
          name: field.name,
          'aria-describedby': describedBy(id, hint, error),
          'aria-invalid': error ? true : undefined,
          required: field.required && !(field.secret && isSet),
        };
        return (
          <div class="field" key={field.name}>
            <label for={id}>
              {t.printerForm.fieldLabels[field.name] ?? field.name}
              {!field.required && <span class="optional"> {t.printerForm.optional}</span>}
              {field.secret && secretsSet !== null && (
                <span class="secret-state" data-secret={isSet ? 'set' : 'unset'}>
                  {' '}
                  ({isSet ? t.printerForm.set : t.printerForm.unset})
                </span>
              )}
            </label>
            <FieldInput
              field={field}
              attributes={attributes}
              value={values.value[field.name] ?? ''}
              set={(v) => (values.value = { ...values.value, [field.name]: v })}
            />
            <FieldNotes id={id} hint={hint} error={error} />
          </div>
        );
      })}
    </fieldset>
  );
}
