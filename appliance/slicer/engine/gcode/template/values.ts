/**
 * Values of the macro language: conversion from caller variables, and printing into G-code.
 * Integers print as integers; floats as PrusaSlicer prints them (6 significant digits, no trailing
 * zeros) but never in exponent notation and never with more than 6 decimals, since firmware reads
 * "1e-06" as 1 and computed noise such as 5.5e-17 must print as 0.
 */
import { isIntegerVariable } from './integer-variables.js';
import { TemplateError, type TemplateValue, type Value } from './types.js';

export function intValue(v: number): Value {
  return { t: 'int', v };
}

export function floatValue(v: number): Value {
  return { t: 'float', v };
}

export function boolValue(v: boolean): Value {
  return { t: 'bool', v };
}

/** Converts a caller variable; undefined when the name holds nothing usable (or is not a variable). */
export function fromTemplateValue(name: string, raw: TemplateValue | undefined): Value | undefined {
  if (Array.isArray(raw)) {
    const items: Value[] = [];
    for (const item of raw) {
      const value = fromScalar(name, item);
      if (!value) return undefined;
      items.push(value);
    }
    return { t: 'vec', v: items };
  }
  return fromScalar(name, raw);
}

function fromScalar(name: string, raw: unknown): Value | undefined {
  switch (typeof raw) {
    case 'number':
      return Number.isInteger(raw) && isIntegerVariable(name) ? intValue(raw) : floatValue(raw);
    case 'string':
      return { t: 'str', v: raw };
    case 'boolean':
      return boolValue(raw);
    default:
      return undefined;
  }
}

export function isNumeric(value: Value): value is Extract<Value, { t: 'int' | 'float' }> {
  return value.t === 'int' || value.t === 'float';
}

export function typeName(value: Value): string {
  switch (value.t) {
    case 'int':
      return 'an integer';
    case 'float':
      return 'a number';
    case 'bool':
      return 'a boolean';
    case 'str':
      return 'a string';
    case 'vec':
      return 'a vector';
  }
}

/* The last float formatted: each layer's change templates print its height twice in a row. */
let lastFloat = Number.NaN;
let lastFloatText = '';

export function formatFloat(v: number): string {
  if (v === lastFloat) return lastFloatText;
  if (!Number.isFinite(v)) return String(v);
  const rounded = Math.round(Number(v.toPrecision(6)) * 1e6) / 1e6;
  lastFloat = v;
  lastFloatText = rounded === 0 ? '0' : String(rounded);
  return lastFloatText;
}

/** `{expr}` output. A vector has no scalar form: the template must index it. */
export function formatValue(value: Value, name: string | null, line: number): string {
  switch (value.t) {
    case 'int':
      return String(value.v);
    case 'float':
      return formatFloat(value.v);
    case 'bool':
      return value.v ? 'true' : 'false';
    case 'str':
      return value.v;
    case 'vec':
      throw new TemplateError(name ? `"${name}" is a vector: index it, e.g. ${name}[0]` : 'a vector cannot be printed: index it', line);
  }
}

/**
 * `[name]` output, PrusaSlicer's legacy form: a vector gives the element of the current extruder
 * (the first one when it has fewer elements), and booleans print as 1/0 like in config files.
 */
export function formatLegacy(value: Value, currentExtruder: number, name: string, line: number): string {
  let scalar = value;
  if (value.t === 'vec') {
    if (value.v.length === 0) throw new TemplateError(`"${name}" is an empty vector`, line);
    scalar = value.v[currentExtruder < value.v.length ? currentExtruder : 0];
  }
  if (scalar.t === 'bool') return scalar.v ? '1' : '0';
  return formatValue(scalar, name, line);
}
