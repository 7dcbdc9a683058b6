/**
 * Evaluates a parsed Program against the caller's variables. Strict like PrusaSlicer: conditions
 * must be booleans, strings and numbers do not compare, a vector must be indexed. `and`/`or`
 * short-circuit, so `{if next_extruder < 255 and filament_type[next_extruder] == "PLA"}` is safe.
 */
import { callBuiltin } from './functions.js';
import { TemplateError, type BinaryOp, type Expr, type Node, type Program, type Statement, type TemplateVars, type Value } from './types.js';
import { boolValue, floatValue, formatLegacy, formatValue, fromTemplateValue, intValue, isNumeric, typeName } from './values.js';

class Scope {
  /** Made at the first `{local}`: most templates (a layer change's, rendered per layer) have none. */
  private locals: Map<string, Value> | null = null;

  constructor(private readonly vars: TemplateVars) {}

  lookup(name: string, line: number): Value {
    const local = this.locals?.get(name);
    if (local) return local;
    const value = fromTemplateValue(name, this.vars[name]);
    if (!value) throw new TemplateError(`unknown variable "${name}"`, line);
    return value;
  }

  define(name: string, value: Value): void {
    this.locals ??= new Map();
    this.locals.set(name, value);
  }

  assign(name: string, value: Value, line: number): void {
    if (!this.locals?.has(name)) {
      throw new TemplateError(`cannot assign to "${name}": only {local} variables can be changed`, line);
    }
    this.locals.set(name, value);
  }

  currentExtruder(): number {
    const raw = this.vars.current_extruder;
    return typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 ? raw : 0;
  }
}

export function evaluateProgram(program: Program, vars: TemplateVars): string {
  const out: string[] = [];
  runNodes(program.nodes, new Scope(vars), out);
  return out.join('');
}

function runNodes(nodes: readonly Node[], scope: Scope, out: string[]): void {
  for (const node of nodes) {
    switch (node.k) {
      case 'text':
        out.push(node.text);
        break;
      case 'legacy':
        out.push(formatLegacy(scope.lookup(node.name, node.line), scope.currentExtruder(), node.name, node.line));
        break;
      case 'statements':
        for (const statement of node.list) runStatement(statement, scope, out);
        break;
      case 'if': {
        const branch = node.branches.find((b) => condition(b.cond, scope));
        runNodes(branch ? branch.body : node.otherwise, scope, out);
        break;
      }
    }
  }
}

function runStatement(statement: Statement, scope: Scope, out: string[]): void {
  const value = evaluate(statement.expr, scope);
  switch (statement.k) {
    case 'output':
      out.push(formatValue(value, statement.expr.k === 'var' ? statement.expr.name : null, statement.line));
      break;
    case 'local':
      scope.define(statement.name, value);
      break;
    case 'assign':
      scope.assign(statement.name, value, statement.line);
      break;
  }
}

function describeExpr(expr: Expr): string {
  return expr.k === 'var' ? `"${expr.name}"` : 'the expression';
}

function condition(expr: Expr, scope: Scope): boolean {
  const value = evaluate(expr, scope);
  if (value.t !== 'bool') throw new TemplateError(`a condition must be true or false, got ${typeName(value)}`, expr.line);
  return value.v;
}

function evaluate(expr: Expr, scope: Scope): Value {
  switch (expr.k) {
    case 'lit':
      return expr.value;
    case 'var':
      return scope.lookup(expr.name, expr.line);
    case 'index':
      return indexInto(expr, scope);
    case 'unary':
      return unary(expr.op, evaluate(expr.arg, scope), expr.line);
    case 'binary':
      return binary(expr.op, evaluate(expr.left, scope), evaluate(expr.right, scope), expr.line);
    case 'logic': {
      const left = condition(expr.left, scope);
      if (expr.op === 'and' ? !left : left) return boolValue(left);
      return boolValue(condition(expr.right, scope));
    }
    case 'match': {
      const subject = evaluate(expr.left, scope);
      if (subject.t !== 'str') throw new TemplateError(`"=~" needs a string on its left, got ${typeName(subject)}`, expr.line);
      return boolValue(expr.pattern.test(subject.v) !== expr.negate);
    }
    case 'ternary':
      return evaluate(condition(expr.cond, scope) ? expr.then : expr.otherwise, scope);
    case 'call':
      return callBuiltin(
        expr.fn,
        expr.args.map((arg) => evaluate(arg, scope)),
        expr.line,
      );
    case 'vector':
      return { t: 'vec', v: expr.items.map((item) => evaluate(item, scope)) };
  }
}

function indexInto(expr: Extract<Expr, { k: 'index' }>, scope: Scope): Value {
  const target = evaluate(expr.target, scope);
  const name = describeExpr(expr.target);
  if (target.t !== 'vec') throw new TemplateError(`${name} is not a vector and cannot be indexed`, expr.line);
  const index = evaluate(expr.index, scope);
  if (!isNumeric(index) || !Number.isInteger(index.v)) {
    throw new TemplateError(`the index of ${name} must be an integer, got ${typeName(index)}`, expr.line);
  }
  const item = target.v[index.v];
  if (item === undefined) throw new TemplateError(`index ${index.v} is out of range for ${name} (size ${target.v.length})`, expr.line);
  return item;
}

function unary(op: '-' | '+' | '!', arg: Value, line: number): Value {
  if (op === '!') {
    if (arg.t !== 'bool') throw new TemplateError(`"not" needs a boolean, got ${typeName(arg)}`, line);
    return boolValue(!arg.v);
  }
  if (!isNumeric(arg)) throw new TemplateError(`unary "${op}" needs a number, got ${typeName(arg)}`, line);
  return op === '-' ? { t: arg.t, v: -arg.v } : arg;
}

function binary(op: BinaryOp, a: Value, b: Value, line: number): Value {
  if (op === '+' && (a.t === 'str' || b.t === 'str')) {
    return { t: 'str', v: concatText(a, line) + concatText(b, line) };
  }
  if (op === '==' || op === '!=') return boolValue(equals(a, b, line) === (op === '=='));
  if (op === '<' || op === '>' || op === '<=' || op === '>=') return compare(op, a, b, line);
  if (!isNumeric(a) || !isNumeric(b)) {
    throw new TemplateError(`"${op}" needs numbers, got ${typeName(a)} and ${typeName(b)}`, line);
  }
  const bothInt = a.t === 'int' && b.t === 'int';
  const make = bothInt ? intValue : floatValue;
  switch (op) {
    case '+':
      return make(a.v + b.v);
    case '-':
      return make(a.v - b.v);
    case '*':
      return make(a.v * b.v);
    case '/':
      if (b.v === 0) throw new TemplateError('division by zero', line);
      return bothInt ? intValue(Math.trunc(a.v / b.v)) : floatValue(a.v / b.v);
    case '%':
      if (b.v === 0) throw new TemplateError('modulo by zero', line);
      return make(a.v % b.v);
  }
}

function concatText(value: Value, line: number): string {
  return formatValue(value, null, line);
}

function equals(a: Value, b: Value, line: number): boolean {
  if (isNumeric(a) && isNumeric(b)) return a.v === b.v;
  if (a.t !== b.t || a.t === 'vec') {
    throw new TemplateError(`cannot compare ${typeName(a)} with ${typeName(b)}`, line);
  }
  return a.v === b.v;
}

function compare(op: '<' | '>' | '<=' | '>=', a: Value, b: Value, line: number): Value {
  let x: number | string;
  let y: number | string;
  if (isNumeric(a) && isNumeric(b)) {
    x = a.v;
    y = b.v;
  } else if (a.t === 'str' && b.t === 'str') {
    x = a.v;
    y = b.v;
  } else {
    throw new TemplateError(`cannot compare ${typeName(a)} with ${typeName(b)} using "${op}"`, line);
  }
  switch (op) {
    case '<':
      return boolValue(x < y);
    case '>':
      return boolValue(x > y);
    case '<=':
      return boolValue(x <= y);
    case '>=':
      return boolValue(x >= y);
  }
}
