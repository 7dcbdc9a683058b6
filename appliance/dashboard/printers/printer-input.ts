/**
 * Turns what a client sent into a stored printer record: a new one (POST) or a changed one (PUT),
 * checked field by field against the same schemas the routes publish, then per type for what a
 * schema cannot say. Every problem is reported at once, each naming its field (`body/connection/port`).
 * Uniqueness across printers is the registry's job.
 */
import { normalizeName } from '../../common/names.js';
import { validationError } from '../http/validate.js';
import { validate, type ValidationIssue } from '../../common/json-schema.js';
import { findPrinterFamily, printerTypeNames } from './families/index.js';
import { SECRET_MASK, type PrinterConnection, type PrinterTypeDefinition } from './families/printer-type.js';
import type { PrinterRecord } from './printer.js';
import { commonInputProperties, connectionPatchSchema } from './schemas.js';

const BODY = 'body';
const COMMON_FIELDS = Object.keys(commonInputProperties);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The common fields present in `input`, each checked against its schema. */
function checkCommon(input: Record<string, unknown>, issues: ValidationIssue[]): void {
  for (const [field, value] of Object.entries(input)) {
    if (field === 'connection') continue;
    if (!COMMON_FIELDS.includes(field)) issues.push({ path: `${BODY}/${field}`, message: 'is not an allowed property' });
    else issues.push(...validate(commonInputProperties[field], value, `${BODY}/${field}`));
  }
}

/** A vendor or model as stored (null when absent); the schema has refused blank ones and unsafe characters, as for names. */
function label(value: unknown): string | null {
  return typeof value === 'string' ? normalizeName(value) : null;
}

function checkVendor(definition: PrinterTypeDefinition, vendor: string | null, issues: ValidationIssue[]): void {
  if (definition.fixedVendor !== null && vendor !== null && vendor !== definition.fixedVendor) {
    issues.push({ path: `${BODY}/vendor`, message: `is always "${definition.fixedVendor}" for ${definition.type} printers; omit it` });
  }
}

/** Checks a complete block (defaults applied) and returns its stored form. */
function completeConnection(definition: PrinterTypeDefinition, block: PrinterConnection, issues: ValidationIssue[]): PrinterConnection {
  const where = `${BODY}/connection`;
  const connection = { ...definition.defaults, ...block };
  const found = validate(definition.connectionSchema, connection, where);
  if (found.length === 0) found.push(...definition.check(connection, where));
  issues.push(...found);
  return found.length === 0 ? definition.normalise(connection) : connection;
}

function requireType(type: unknown, issues: ValidationIssue[]): PrinterTypeDefinition | undefined {
  const definition = typeof type === 'string' ? findPrinterFamily(type) : undefined;
  if (!definition && !issues.some((issue) => issue.path === `${BODY}/type`)) {
    issues.push({ path: `${BODY}/type`, message: `is ${JSON.stringify(type)}, not a known printer type (${printerTypeNames().join(', ')})` });
  }
  return definition;
}

function fail(issues: ValidationIssue[]): never {
  throw validationError(issues);
}

export function newPrinterRecord(input: unknown, id: string, now: Date): PrinterRecord {
  if (!isObject(input)) throw validationError([{ path: BODY, message: 'must be an object' }]);
  const issues: ValidationIssue[] = [];
  for (const field of ['name', 'type', 'connection']) {
    if (input[field] === undefined) issues.push({ path: `${BODY}/${field}`, message: 'is required' });
  }
  checkCommon(input, issues);
  if (issues.length > 0) fail(issues);
  const definition = requireType(input.type, issues);
  if (!isObject(input.connection)) issues.push({ path: `${BODY}/connection`, message: 'must be an object' });
  if (!definition || issues.length > 0) fail(issues);
  const vendor = label(input.vendor);
  checkVendor(definition, vendor, issues);
  const connection = completeConnection(definition, input.connection as PrinterConnection, issues);
  if (issues.length > 0) fail(issues);
  const at = now.toISOString();
  return {
    id,
    name: normalizeName(input.name as string),
    type: definition.type,
    vendor: definition.fixedVendor === null ? vendor : null,
    model: label(input.model),
    printer_profile: (input.printer_profile as string | null | undefined) ?? null,
    enabled: (input.enabled as boolean | undefined) ?? true,
    connection,
    created_at: at,
    updated_at: at,
  };
}

/**
 * The block a PUT describes. With the same type it is merged over the stored one: omitted fields
 * and masked secrets keep their values, null clears an optional field. With a new type it
 * replaces the stored one and must be complete, secrets included.
 */
function patchedConnection(definition: PrinterTypeDefinition, current: PrinterRecord, block: unknown, issues: ValidationIssue[]): PrinterConnection {
  const where = `${BODY}/connection`;
  const typeChanged = definition.type !== current.type;
  if (block === undefined) {
    if (typeChanged) issues.push({ path: where, message: `is required when the type changes (complete, for ${definition.type})` });
    return current.connection;
  }
  const found = validate(connectionPatchSchema(definition), block, where);
  if (found.length > 0) {
    issues.push(...found);
    return current.connection;
  }
  const merged: PrinterConnection = typeChanged ? {} : { ...current.connection };
  for (const [field, value] of Object.entries(block as PrinterConnection)) {
    if (definition.secrets.some((secret) => field === `${secret}_set`)) continue;
    if (definition.secrets.includes(field) && value === SECRET_MASK) {
      if (typeChanged || current.connection[field] === undefined) {
        issues.push({ path: `${where}/${field}`, message: `has no stored value for "${SECRET_MASK}" to keep; send the value` });
      }
      continue;
    }
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  if (issues.length > 0) return current.connection;
  return completeConnection(definition, merged, issues);
}

export function patchedPrinterRecord(current: PrinterRecord, patch: unknown, now: Date): PrinterRecord {
  if (!isObject(patch)) throw validationError([{ path: BODY, message: 'must be an object' }]);
  const issues: ValidationIssue[] = [];
  checkCommon(patch, issues);
  if (issues.length > 0) fail(issues);
  const definition = requireType(patch.type ?? current.type, issues);
  if (!definition) fail(issues);
  const typeChanged = definition.type !== current.type;
  const keptVendor = typeChanged ? null : current.vendor;
  const requestedVendor = patch.vendor === undefined ? keptVendor : label(patch.vendor);
  checkVendor(definition, patch.vendor === undefined ? null : requestedVendor, issues);
  const connection = patchedConnection(definition, current, patch.connection, issues);
  if (issues.length > 0) fail(issues);
  return {
    ...current,
    name: patch.name === undefined ? current.name : normalizeName(patch.name as string),
    type: definition.type,
    vendor: definition.fixedVendor === null ? requestedVendor : null,
    model: patch.model === undefined ? current.model : label(patch.model),
    printer_profile: patch.printer_profile === undefined ? current.printer_profile : (patch.printer_profile as string | null),
    enabled: patch.enabled === undefined ? current.enabled : (patch.enabled as boolean),
    connection,
    updated_at: now.toISOString(),
  };
}
