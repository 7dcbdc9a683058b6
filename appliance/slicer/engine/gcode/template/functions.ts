/**
 * Built-in functions of the macro language, with PrusaSlicer's semantics: min/max keep integers
 * integer, int() truncates, round() rounds half away from zero, digits/zdigits format a number
 * to a field width (space or zero padded) with a number of decimals.
 */
import { TemplateError, type Value } from './types.js';
import { boolValue, floatValue, intValue, isNumeric, typeName } from './values.js';

type Builtin = (args: Value[], line: number) => Value;

function numberArg(fn: string, value: Value, line: number): number {
  if (!isNumeric(value)) throw new TemplateError(`${fn}() expects a number, got ${typeName(value)}`, line);
  return value.v;
}

function arity(fn: string, args: Value[], min: number, max: number, line: number): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new TemplateError(`${fn}() takes ${expected} arguments, got ${args.length}`, line);
  }
}

function minMax(fn: 'min' | 'max'): Builtin {
  return (args, line) => {
    arity(fn, args, 2, 2, line);
    const a = numberArg(fn, args[0], line);
    const b = numberArg(fn, args[1], line);
    const v = fn === 'min' ? Math.min(a, b) : Math.max(a, b);
    return args[0].t === 'int' && args[1].t === 'int' ? intValue(v) : floatValue(v);
  };
}

function padded(fn: 'digits' | 'zdigits'): Builtin {
  return (args, line) => {
    arity(fn, args, 2, 3, line);
    const value = numberArg(fn, args[0], line);
    const width = numberArg(fn, args[1], line);
    const decimals = args.length === 3 ? numberArg(fn, args[2], line) : 0;
    if (!Number.isInteger(width) || width < 0 || !Number.isInteger(decimals) || decimals < 0 || decimals > 20) {
      throw new TemplateError(`${fn}() needs a non-negative integer width and decimals`, line);
    }
    const sign = value < 0 ? '-' : '';
    const body = Math.abs(value).toFixed(decimals);
    const text = fn === 'zdigits' ? sign + body.padStart(width - sign.length, '0') : (sign + body).padStart(width, ' ');
    return { t: 'str', v: text };
  };
}

function vectorArg(fn: string, value: Value, line: number): readonly Value[] {
  if (value.t !== 'vec') throw new TemplateError(`${fn}() expects a vector, got ${typeName(value)}`, line);
  return value.v;
}

function sameScalar(a: Value, b: Value): boolean {
  if (isNumeric(a) && isNumeric(b)) return a.v === b.v;
  return a.t === b.t && a.v === b.v;
}

const BUILTINS: Record<string, Builtin> = {
  min: minMax('min'),
  max: minMax('max'),
  int: (args, line) => {
    arity('int', args, 1, 1, line);
    return intValue(Math.trunc(numberArg('int', args[0], line)));
  },
  round: (args, line) => {
    arity('round', args, 1, 1, line);
    const v = numberArg('round', args[0], line);
    return intValue(Math.sign(v) * Math.round(Math.abs(v)));
  },
  digits: padded('digits'),
  zdigits: padded('zdigits'),
  size: (args, line) => {
    arity('size', args, 1, 1, line);
    return intValue(vectorArg('size', args[0], line).length);
  },
  empty: (args, line) => {
    arity('empty', args, 1, 1, line);
    return boolValue(vectorArg('empty', args[0], line).length === 0);
  },
  one_of: (args, line) => {
    if (args.length < 1) throw new TemplateError('one_of() needs a value to look for', line);
    return boolValue(args.slice(1).some((candidate) => sameScalar(args[0], candidate)));
  },
  // Resolved configurations never hold "nil" (inherited) values; the argument is still evaluated
  // so a misspelt name is reported.
  is_nil: (args, line) => {
    arity('is_nil', args, 1, 1, line);
    return boolValue(false);
  },
};

export function callBuiltin(fn: string, args: Value[], line: number): Value {
  const builtin = BUILTINS[fn];
  if (!builtin || !Object.hasOwn(BUILTINS, fn)) throw new TemplateError(`unknown function "${fn}"`, line);
  return builtin(args, line);
}
