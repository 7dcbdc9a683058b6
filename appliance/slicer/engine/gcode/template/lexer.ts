/**
 * Splits a template into literal text, legacy `[name]` placeholders and `{...}` macro blocks, and
 * tokenises each block. Text pieces end at a newline (the newline stays with them), so the parser
 * can work line by line when it drops lines that hold only control tags.
 */
import { TemplateError } from './types.js';

export type Token =
  | { type: 'num'; text: string; isFloat: boolean; line: number }
  | { type: 'str'; text: string; line: number }
  | { type: 'regex'; text: string; line: number }
  | { type: 'ident'; text: string; line: number }
  | { type: 'op'; text: string; line: number };

export type Piece =
  | { kind: 'text'; text: string }
  | { kind: 'legacy'; name: string; line: number }
  | { kind: 'macro'; tokens: Token[]; line: number };

const LEGACY_NAME = /[A-Za-z_][A-Za-z0-9_]*(?=\])/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const TWO_CHAR_OPS = new Set(['==', '!=', '<>', '<=', '>=', '=~', '!~', '&&', '||']);
const ONE_CHAR_OPS = new Set(['+', '-', '*', '/', '%', '(', ')', '[', ']', ',', '?', ':', '<', '>', '=', '!', ';']);
const ESCAPABLE = new Set(['[', ']', '{', '}']);

export function lexTemplate(source: string): Piece[] {
  const pieces: Piece[] = [];
  let text = '';
  let line = 1;
  let i = 0;
  const flushText = (): void => {
    if (text !== '') pieces.push({ kind: 'text', text });
    text = '';
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\\' && ESCAPABLE.has(source[i + 1])) {
      text += source[i + 1];
      i += 2;
    } else if (c === '\n') {
      text += c;
      flushText();
      line++;
      i++;
    } else if (c === '[') {
      LEGACY_NAME.lastIndex = i + 1;
      const m = LEGACY_NAME.exec(source);
      if (m) {
        flushText();
        pieces.push({ kind: 'legacy', name: m[0], line });
        i = LEGACY_NAME.lastIndex + 1;
      } else {
        text += c;
        i++;
      }
    } else if (c === '{') {
      flushText();
      const block = lexMacro(source, i + 1, line);
      pieces.push({ kind: 'macro', tokens: block.tokens, line });
      line = block.line;
      i = block.end;
    } else {
      text += c;
      i++;
    }
  }
  flushText();
  return pieces;
}

/** Tokenises a macro block starting just after its `{`; returns the index just after its `}`. */
function lexMacro(source: string, start: number, startLine: number): { tokens: Token[]; end: number; line: number } {
  const tokens: Token[] = [];
  let line = startLine;
  let i = start;
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '}') {
      return { tokens, end: i + 1, line };
    } else if (c === '"') {
      const str = readString(source, i + 1, line);
      tokens.push({ type: 'str', text: str.value, line });
      i = str.end;
    } else if (c === '/' && isMatchOperator(tokens[tokens.length - 1])) {
      const re = readRegex(source, i + 1, line);
      tokens.push({ type: 'regex', text: re.value, line });
      i = re.end;
    } else if (isDigit(c) || (c === '.' && isDigit(source[i + 1]))) {
      const text = matchAt(NUMBER, source, i, line);
      tokens.push({ type: 'num', text, isFloat: /[.eE]/.test(text), line });
      i += text.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const text = matchAt(IDENT, source, i, line);
      tokens.push({ type: 'ident', text, line });
      i += text.length;
    } else if (TWO_CHAR_OPS.has(source.slice(i, i + 2))) {
      tokens.push({ type: 'op', text: source.slice(i, i + 2), line });
      i += 2;
    } else if (ONE_CHAR_OPS.has(c)) {
      tokens.push({ type: 'op', text: c, line });
      i++;
    } else {
      throw new TemplateError(`unexpected character "${c}" in a {...} block`, line);
    }
  }
  throw new TemplateError('"{" is never closed by "}"', startLine);
}

/** The text the sticky `pattern` matches at `i`; the caller has checked the first character. */
function matchAt(pattern: RegExp, source: string, i: number, line: number): string {
  pattern.lastIndex = i;
  const match = pattern.exec(source);
  if (!match) throw new TemplateError(`unexpected character "${source[i]}" in a {...} block`, line);
  return match[0];
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isMatchOperator(token: Token | undefined): boolean {
  return token !== undefined && token.type === 'op' && (token.text === '=~' || token.text === '!~');
}

function readString(source: string, start: number, line: number): { value: string; end: number } {
  let value = '';
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '"') return { value, end: i + 1 };
    if (c === '\n') break;
    if (c === '\\' && i + 1 < source.length) {
      const next = source[++i];
      value += unescaped(next);
    } else {
      value += c;
    }
  }
  throw new TemplateError("string literal is never closed by '\"'", line);
}

/** The character a backslash followed by `c` stands for in a string literal. */
function unescaped(c: string): string {
  if (c === 'n') return '\n';
  if (c === 't') return '\t';
  return c;
}

function readRegex(source: string, start: number, line: number): { value: string; end: number } {
  let value = '';
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '/') return { value, end: i + 1 };
    if (c === '\n') break;
    if (c === '\\' && source[i + 1] === '/') {
      value += '/';
      i++;
    } else {
      value += c;
    }
  }
  throw new TemplateError('regular expression is never closed by "/"', line);
}
