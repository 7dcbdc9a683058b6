/**
 * Turns template source into a Program: classifies each `{...}` block (control tag or statements),
 * drops lines that hold nothing but control tags and whitespace (so `{if}`/`{endif}` on their own
 * lines leave no blank lines), and nests `{if}`/`{elsif}`/`{else}`/`{endif}` into a tree.
 * Parsed programs are cached by source: the layer-change template is rendered once per layer.
 */
import { lexTemplate, type Piece, type Token } from './lexer.js';
import { TokenCursor, isKeyword, parseExpression } from './expression.js';
import { TemplateError, type Expr, type Node, type Program, type Statement } from './types.js';

type ControlTag = 'if' | 'elsif' | 'else' | 'endif';

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'legacy'; name: string; line: number }
  | { kind: 'control'; tag: 'if' | 'elsif'; cond: Expr; line: number }
  | { kind: 'control'; tag: 'else' | 'endif'; line: number }
  | { kind: 'statements'; list: Statement[]; silent: boolean };

const CACHE_LIMIT = 256;
const cache = new Map<string, Program>();

export function parseTemplate(source: string): Program {
  const cached = cache.get(source);
  if (cached) return cached;
  const blocks = dropControlOnlyLines(lexTemplate(source).map(toBlock));
  const program: Program = { nodes: buildTree(blocks) };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, program);
  return program;
}

function toBlock(piece: Piece): Block {
  if (piece.kind !== 'macro') return piece;
  if (piece.tokens.length === 0) throw new TemplateError('empty {} block', piece.line);
  const first = piece.tokens[0];
  if (first.type === 'ident' && (first.text === 'if' || first.text === 'elsif' || first.text === 'else' || first.text === 'endif')) {
    return parseControl(first.text, piece.tokens, piece.line);
  }
  const list = splitStatements(piece.tokens).map((tokens) => parseStatement(tokens, piece.line));
  return { kind: 'statements', list, silent: list.every((s) => s.k !== 'output') };
}

function parseControl(tag: ControlTag, tokens: Token[], line: number): Block {
  const cursor = new TokenCursor(tokens.slice(1), line);
  let block: Block;
  if (tag === 'if' || tag === 'elsif') {
    if (cursor.atEnd()) throw new TemplateError(`{${tag}} needs a condition`, line);
    block = { kind: 'control', tag, cond: parseExpression(cursor), line };
  } else {
    block = { kind: 'control', tag, line };
  }
  if (!cursor.atEnd()) throw new TemplateError(`unexpected ${cursor.next().text} in {${tag}...}`, cursor.line());
  return block;
}

function splitStatements(tokens: Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const token of tokens) {
    if (token.type === 'op' && token.text === ';') out.push([]);
    else out[out.length - 1].push(token);
  }
  return out.filter((statement) => statement.length > 0);
}

function parseStatement(tokens: Token[], blockLine: number): Statement {
  const first = tokens[0];
  const line = first.line;
  if (first.type === 'ident' && (first.text === 'if' || first.text === 'elsif' || first.text === 'else' || first.text === 'endif')) {
    throw new TemplateError(`{${first.text}} must stand alone in its {...} block`, line);
  }
  if (first.type === 'ident' && first.text === 'global') {
    throw new TemplateError('global variables are not supported; use {local name = ...}', line);
  }
  if (first.type === 'ident' && first.text === 'local') {
    const name = tokens[1];
    if (name?.type !== 'ident' || isKeyword(name.text)) throw new TemplateError('{local} needs a variable name', line);
    return { k: 'local', name: name.text, expr: parseAssignedValue(tokens.slice(2), blockLine, line), line };
  }
  const second = tokens[1];
  if (first.type === 'ident' && second?.type === 'op' && second.text === '=') {
    return { k: 'assign', name: first.text, expr: parseAssignedValue(tokens.slice(1), blockLine, line), line };
  }
  const cursor = new TokenCursor(tokens, blockLine);
  const expr = parseExpression(cursor);
  if (!cursor.atEnd()) throw new TemplateError(`unexpected ${cursor.next().text} after the expression`, cursor.line());
  return { k: 'output', expr, line };
}

function parseAssignedValue(tokens: Token[], blockLine: number, line: number): Expr {
  const cursor = new TokenCursor(tokens, blockLine);
  if (!cursor.isOp('=')) throw new TemplateError('expected "=" in the assignment', line);
  cursor.next();
  const expr = parseExpression(cursor);
  if (!cursor.atEnd()) throw new TemplateError(`unexpected ${cursor.next().text} after the assigned value`, cursor.line());
  return expr;
}

function isQuiet(block: Block): boolean {
  return block.kind === 'control' || (block.kind === 'statements' && block.silent);
}

function isBlankText(block: Block): boolean {
  return block.kind === 'text' && block.text.trim() === '';
}

/** A line made only of control tags, silent statements and whitespace is removed with its newline. */
function dropControlOnlyLines(blocks: Block[]): Block[] {
  const out: Block[] = [];
  let line: Block[] = [];
  const flushLine = (): void => {
    const onlyControl = line.some(isQuiet) && line.every((b) => isQuiet(b) || isBlankText(b));
    for (const block of line) if (!onlyControl || isQuiet(block)) out.push(block);
    line = [];
  };
  for (const block of blocks) {
    line.push(block);
    if (block.kind === 'text' && block.text.endsWith('\n')) flushLine();
  }
  flushLine();
  return out;
}

interface OpenIf {
  node: Extract<Node, { k: 'if' }>;
  body: Node[];
  sawElse: boolean;
  line: number;
}

function buildTree(blocks: Block[]): Node[] {
  const root: Node[] = [];
  const stack: OpenIf[] = [];
  const current = (): Node[] => (stack.length > 0 ? stack[stack.length - 1].body : root);
  for (const block of blocks) {
    if (block.kind === 'text') current().push({ k: 'text', text: block.text });
    else if (block.kind === 'legacy') current().push({ k: 'legacy', name: block.name, line: block.line });
    else if (block.kind === 'statements') current().push({ k: 'statements', list: block.list });
    else if (block.tag === 'if') {
      const body: Node[] = [];
      const node: Extract<Node, { k: 'if' }> = { k: 'if', branches: [{ cond: block.cond, body }], otherwise: [] };
      current().push(node);
      stack.push({ node, body, sawElse: false, line: block.line });
    } else {
      const open = stack[stack.length - 1];
      if (!open) throw new TemplateError(`{${block.tag}} without a matching {if}`, block.line);
      if (block.tag === 'endif') {
        stack.pop();
      } else if (open.sawElse) {
        throw new TemplateError(`{${block.tag}} after {else}`, block.line);
      } else if (block.tag === 'elsif') {
        open.body = [];
        open.node.branches.push({ cond: block.cond, body: open.body });
      } else {
        open.sawElse = true;
        open.body = open.node.otherwise;
      }
    }
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) throw new TemplateError('{if} is never closed by {endif}', unclosed.line);
  return root;
}
