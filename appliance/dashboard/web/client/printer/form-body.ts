/**
 * The printer form's values as the API takes them. Creating: every filled field (numbers as
 * numbers), empty optional ones left out. Editing: only what changed; an empty secret is left out
 * (the stored one stays: printers/README.md, Secrets), an optional field emptied is null (cleared).
 */
import type { PrinterView } from '../fleet/store';
import { connectionFields, isInteger, type PrinterType } from './connection-fields';

export interface FormValues {
  name: string;
  model: string;
  vendor: string;
  enabled: boolean;
  connection: Record<string, string>;
}

function typed(text: string, integer: boolean): string | number {
  return integer ? Number(text) : text;
}

/** The form's values for a new printer of `type`, or for the printer `view`. */
export function initialValues(type: PrinterType, view: PrinterView | null): FormValues {
  const stored = (view?.connection ?? {}) as Record<string, unknown>;
  const connection: Record<string, string> = {};
  for (const field of connectionFields(type)) {
    const value = field.secret ? undefined : (stored[field.name] ?? (view === null ? type.defaults[field.name] : undefined));
    connection[field.name] = value === undefined || value === null ? '' : String(value);
  }
  return {
    name: view?.name ?? '',
    model: view?.model ?? '',
    vendor: view === null ? '' : (view.vendor ?? ''),
    enabled: view?.enabled ?? true,
    connection,
  };
}

export function createBody(type: PrinterType, values: FormValues) {
  const connection: Record<string, string | number> = {};
  for (const field of connectionFields(type)) {
    const text = values.connection[field.name]?.trim() ?? '';
    if (text !== '') connection[field.name] = typed(text, isInteger(field));
  }
  return {
    name: values.name.trim(),
    type: type.type,
    ...(values.model.trim() === '' ? {} : { model: values.model.trim() }),
    ...(type.fixed_vendor !== null || values.vendor.trim() === '' ? {} : { vendor: values.vendor.trim() }),
    enabled: values.enabled,
    connection,
  };
}

/** An optional text on edit: unchanged (undefined: not sent), emptied (null: cleared) or the new text. */
function optional(now: string, was: string): string | null | undefined {
  const text = now.trim();
  if (text === was) return undefined;
  return text === '' ? null : text;
}

export function editBody(type: PrinterType, values: FormValues, view: PrinterView) {
  const before = initialValues(type, view);
  const connection: Record<string, string | number | null> = {};
  for (const field of connectionFields(type)) {
    const text = values.connection[field.name]?.trim() ?? '';
    if (field.secret) {
      if (text !== '') connection[field.name] = text;
    } else if (text !== before.connection[field.name].trim()) {
      connection[field.name] = text === '' ? null : typed(text, isInteger(field));
    }
  }
  const body: Record<string, unknown> = {};
  if (values.name.trim() !== view.name) body.name = values.name.trim();
  const model = optional(values.model, before.model);
  if (model !== undefined) body.model = model;
  if (type.fixed_vendor === null) {
    const vendor = optional(values.vendor, before.vendor);
    if (vendor !== undefined) body.vendor = vendor;
  }
  if (values.enabled !== view.enabled) body.enabled = values.enabled;
  if (Object.keys(connection).length > 0) body.connection = connection;
  return body;
}
