/**
 * Recursive-descent parser for the expressions inside `{...}` blocks. Precedence, lowest first:
 * ternary `?:`, `or`/`||`, `and`/`&&`, comparisons (`== != <> < > <= >= =~ !~`), `+ -`, `* / %`,
 * unary `- + ! not`, indexing `a[i]`, then literals, variables, calls and parentheses.
 * `(a, b, c)` is a vector literal (used by `{local v = (1, 2)}`).
 */
import type { Token } from './lexer.js';
import { TemplateError, type BinaryOp, type Expr } from './types.js';

const KEYWORDS = new Set(['if', 'elsif', 'else', 'endif', 'local', 'global', 'and', 'or', 'not', 'true', 'false']);
const COMPARISONS: Record<string, BinaryOp> = { '==': '==', '!=': '!=', '<>': '!=', '<': '<', '>': '>', '<=': '<=', '>=': '>=' };

export function isKeyword(word: string): boolean {
  return KEYWORDS.has(word);
}

/** A cursor over the tokens of one statement. */
export class TokenCursor {
  private pos = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly blockLine: number,
  ) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  next(): Token {
    const token = this.tokens[this.pos];
    if (!token) throw new TemplateError('unexpected end of {...} block', this.line());
    this.pos++;
    return token;
  }

  atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  line(): number {
    return (this.tokens[this.pos] ?? this.tokens[this.tokens.length - 1])?.line ?? this.blockLine;
  }

  isOp(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token !== undefined && token.type === 'op' && token.text === text;
  }

  isWord(text: string): boolean {
    const token = this.peek();
    return token !== undefined && token.type === 'ident' && token.text === text;
  }

  expectOp(text: string): void {
    if (!this.isOp(text)) throw new TemplateError(`expected "${text}" ${this.describeNext()}`, this.line());
    this.pos++;
  }

  describeNext(): string {
    const token = this.peek();
    if (!token) return 'before the end of the {...} block';
    return `but found ${token.type === 'str' ? `"${token.text}"` : token.text}`;
  }
}

export function parseExpression(cursor: TokenCursor): Expr {
  const cond = parseOr(cursor);
  if (!cursor.isOp('?')) return cond;
  const line = cursor.line();
  cursor.next();
  const then = parseExpression(cursor);
  cursor.expectOp(':');
  const otherwise = parseExpression(cursor);
  return { k: 'ternary', cond, then, otherwise, line };
}

function parseOr(cursor: TokenCursor): Expr {
  let left = parseAnd(cursor);
  while (cursor.isOp('||') || cursor.isWord('or')) {
    const line = cursor.next().line;
    left = { k: 'logic', op: 'or', left, right: parseAnd(cursor), line };
  }
  return left;
}

function parseAnd(cursor: TokenCursor): Expr {
  let left = parseComparison(cursor);
  while (cursor.isOp('&&') || cursor.isWord('and')) {
    const line = cursor.next().line;
    left = { k: 'logic', op: 'and', left, right: parseComparison(cursor), line };
  }
  return left;
}

function parseComparison(cursor: TokenCursor): Expr {
  const left = parseAdditive(cursor);
  const token = cursor.peek();
  if (token?.type !== 'op') return left;
  if (token.text === '=~' || token.text === '!~') {
    cursor.next();
    const pattern = cursor.next();
    if (pattern.type !== 'regex') throw new TemplateError(`"${token.text}" must be followed by a /regular expression/`, token.line);
    return { k: 'match', negate: token.text === '!~', left, pattern: compileRegex(pattern.text, pattern.line), line: token.line };
  }
  const op = COMPARISONS[token.text];
  if (!op) return left;
  cursor.next();
  return { k: 'binary', op, left, right: parseAdditive(cursor), line: token.line };
}

function parseAdditive(cursor: TokenCursor): Expr {
  let left = parseMultiplicative(cursor);
  while (cursor.isOp('+') || cursor.isOp('-')) {
    const token = cursor.next();
    left = { k: 'binary', op: token.text as BinaryOp, left, right: parseMultiplicative(cursor), line: token.line };
  }
  return left;
}

function parseMultiplicative(cursor: TokenCursor): Expr {
  let left = parseUnary(cursor);
  while (cursor.isOp('*') || cursor.isOp('/') || cursor.isOp('%')) {
    const token = cursor.next();
    left = { k: 'binary', op: token.text as BinaryOp, left, right: parseUnary(cursor), line: token.line };
  }
  return left;
}

/** `-` and `+` are themselves; `!` and the word `not` are both negation. */
function unaryOpOf(text: string): '-' | '+' | '!' {
  if (text === '-' || text === '+') return text;
  return '!';
}

function parseUnary(cursor: TokenCursor): Expr {
  if (cursor.isOp('-') || cursor.isOp('+') || cursor.isOp('!') || cursor.isWord('not')) {
    const token = cursor.next();
    return { k: 'unary', op: unaryOpOf(token.text), arg: parseUnary(cursor), line: token.line };
  }
  let expr = parsePrimary(cursor);
  while (cursor.isOp('[')) {
    const line = cursor.next().line;
    const index = parseExpression(cursor);
    cursor.expectOp(']');
    expr = { k: 'index', target: expr, index, line };
  }
  return expr;
}

function parsePrimary(cursor: TokenCursor): Expr {
  const token = cursor.next();
  switch (token.type) {
    case 'num': {
      const v = Number(token.text);
      return { k: 'lit', value: token.isFloat ? { t: 'float', v } : { t: 'int', v }, line: token.line };
    }
    case 'str':
      return { k: 'lit', value: { t: 'str', v: token.text }, line: token.line };
    case 'regex':
      throw new TemplateError('a /regular expression/ may only follow "=~" or "!~"', token.line);
    case 'ident':
      return parseIdentifier(cursor, token.text, token.line);
    case 'op':
      if (token.text === '(') return parseParenthesised(cursor, token.line);
      throw new TemplateError(`unexpected "${token.text}" in an expression`, token.line);
  }
}

function parseIdentifier(cursor: TokenCursor, name: string, line: number): Expr {
  if (name === 'true' || name === 'false') return { k: 'lit', value: { t: 'bool', v: name === 'true' }, line };
  if (isKeyword(name)) throw new TemplateError(`"${name}" cannot be used here`, line);
  if (!cursor.isOp('(')) return { k: 'var', name, line };
  cursor.next();
  const args: Expr[] = [];
  if (!cursor.isOp(')')) {
    args.push(parseExpression(cursor));
    while (cursor.isOp(',')) {
      cursor.next();
      args.push(parseExpression(cursor));
    }
  }
  cursor.expectOp(')');
  return { k: 'call', fn: name, args, line };
}

function parseParenthesised(cursor: TokenCursor, line: number): Expr {
  const first = parseExpression(cursor);
  if (!cursor.isOp(',')) {
    cursor.expectOp(')');
    return first;
  }
  const items = [first];
  while (cursor.isOp(',')) {
    cursor.next();
    items.push(parseExpression(cursor));
  }
  cursor.expectOp(')');
  return { k: 'vector', items, line };
}

/**
 * PrusaSlicer matches the whole string (boost::regex_match) and its `.` also matches newlines,
 * which `printer_notes` patterns such as `/.*PRINTER_MODEL_MINI.*\/` rely on.
 */
function compileRegex(source: string, line: number): RegExp {
  try {
    return new RegExp(`^(?:${source})$`, 's');
  } catch (err) {
    throw new TemplateError(`invalid regular expression /${source}/: ${(err as Error).message}`, line);
  }
}
