/**
 * Types of the custom G-code macro language (PrusaSlicer/OrcaSlicer placeholders): what callers
 * pass in, the values the evaluator computes with, and the parsed program.
 */

export type TemplateScalar = number | string | boolean;
/** A variable: a scalar, a per-extruder vector, or a point `[x, y]`. */
export type TemplateValue = TemplateScalar | Array<TemplateScalar> | [number, number];
export type TemplateVars = Record<string, TemplateValue>;

/**
 * A value during evaluation. Integers and floats are kept apart because the language divides
 * integers as integers (`{5/2}` is 2, `{5.0/2}` is 2.5), exactly as PrusaSlicer does.
 */
export type Value =
  | { readonly t: 'int'; readonly v: number }
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'str'; readonly v: string }
  | { readonly t: 'vec'; readonly v: readonly Value[] };

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '>' | '<=' | '>=';

export type Expr =
  | { k: 'lit'; value: Value; line: number }
  | { k: 'var'; name: string; line: number }
  | { k: 'index'; target: Expr; index: Expr; line: number }
  | { k: 'unary'; op: '-' | '+' | '!'; arg: Expr; line: number }
  | { k: 'binary'; op: BinaryOp; left: Expr; right: Expr; line: number }
  | { k: 'logic'; op: 'and' | 'or'; left: Expr; right: Expr; line: number }
  | { k: 'match'; negate: boolean; left: Expr; pattern: RegExp; line: number }
  | { k: 'ternary'; cond: Expr; then: Expr; otherwise: Expr; line: number }
  | { k: 'call'; fn: string; args: Expr[]; line: number }
  | { k: 'vector'; items: Expr[]; line: number };

/** One statement of a `{...}` block that is not a control tag. */
export type Statement =
  | { k: 'output'; expr: Expr; line: number }
  | { k: 'local'; name: string; expr: Expr; line: number }
  | { k: 'assign'; name: string; expr: Expr; line: number };

export type Node =
  | { k: 'text'; text: string }
  | { k: 'legacy'; name: string; line: number }
  | { k: 'statements'; list: Statement[] }
  | { k: 'if'; branches: Array<{ cond: Expr; body: Node[] }>; otherwise: Node[] };

/** A parsed template, ready to evaluate any number of times. */
export interface Program {
  readonly nodes: Node[];
}

/** A syntax or evaluation error located in the template; the caller adds which template it was. */
export class TemplateError extends Error {
  readonly line: number;

  constructor(message: string, line: number) {
    super(message);
    this.name = 'TemplateError';
    this.line = line;
  }
}
