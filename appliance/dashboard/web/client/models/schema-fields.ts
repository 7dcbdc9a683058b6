/**
 * A generator's JSON Schema read as form fields: the kind of input each property needs, its
 * label, unit and bounds, the text of its default, and the value a field's text stands for.
 */
export type FieldKind = 'number' | 'select' | 'checkbox' | 'text' | 'long-text' | 'points' | 'json';

export interface SchemaProperty {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
  items?: SchemaProperty;
}

export interface FormField {
  name: string;
  kind: FieldKind;
  label: string;
  /** The description without its trailing unit. */
  hint: string;
  unit: string | null;
  property: SchemaProperty;
  /** A number's step: 1 for integers, else fine enough for the default and the bounds. */
  step: number | 'any';
}

/** `Extrusion height (mm).` → unit `mm`; the unit is the last parenthesis of the description when it is short. */
function unitOf(description: string): string | null {
  const match = /\(([^()]{1,8})\)\.?$/.exec(description.trim());
  return match ? match[1] : null;
}

function kindOf(property: SchemaProperty): FieldKind {
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  if (property.enum) return 'select';
  if (type === 'boolean') return 'checkbox';
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'string') return (property.maxLength ?? 0) > 200 ? 'long-text' : 'text';
  if (type === 'array') return 'points';
  return 'json';
}

function decimals(value: unknown): number {
  if (typeof value !== 'number' || Number.isInteger(value)) return 0;
  return String(value).split('.')[1]?.length ?? 0;
}

function stepOf(property: SchemaProperty): number | 'any' {
  if (property.type === 'integer') return 1;
  const places = Math.max(decimals(property.default), decimals(property.minimum), decimals(property.maximum), 1);
  return places > 3 ? 'any' : 10 ** -places;
}

/** `letter_height` → `Letter height`. */
function labelOf(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function formFields(parameters: Record<string, unknown>): FormField[] {
  const properties = (parameters.properties ?? {}) as Record<string, SchemaProperty>;
  return Object.entries(properties).map(([name, property]) => {
    const description = property.description ?? '';
    const unit = unitOf(description);
    return {
      name,
      kind: kindOf(property),
      label: labelOf(name),
      hint: unit === null ? description : description.replace(/\s*\([^()]*\)\.?$/, '.').replace(/\.\.$/, '.'),
      unit,
      property,
      step: stepOf(property),
    };
  });
}

/** The text a field starts with: its default. */
export function defaultText(field: FormField): string {
  const value = field.property.default;
  if (value === undefined || value === null) return '';
  if (field.kind === 'points' || field.kind === 'json') return JSON.stringify(value);
  return String(value);
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: 'number' | 'json' | 'points' };

/** A point list `[[x, y], …]`, or a list of them (a sketch's holes), as numbers. */
function isPoints(value: unknown, depth: number): boolean {
  if (!Array.isArray(value)) return false;
  if (depth === 0) return value.length === 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
  return value.every((item) => isPoints(item, depth - 1));
}

function pointDepth(property: SchemaProperty): number {
  let depth = 0;
  for (let p: SchemaProperty | undefined = property.items; p?.type === 'array'; p = p.items) depth++;
  return depth;
}

/** The value a field's text stands for, checked as far as the browser can before the server does. */
export function parseField(field: FormField, text: string): Parsed {
  switch (field.kind) {
    case 'number': {
      const value = Number(text);
      return text.trim() === '' || !Number.isFinite(value) ? { ok: false, error: 'number' } : { ok: true, value };
    }
    case 'checkbox':
      return { ok: true, value: text === 'true' };
    case 'points':
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return { ok: false, error: 'json' };
      }
      if (field.kind === 'points' && !isPoints(value, pointDepth(field.property))) return { ok: false, error: 'points' };
      return { ok: true, value };
    }
    default:
      return { ok: true, value: text };
  }
}
