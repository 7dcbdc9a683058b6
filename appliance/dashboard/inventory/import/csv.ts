/**
 * Spoolman's CSV export (Python's csv.DictWriter): a header of dotted names, then one line per
 * record; cells with commas, quotes or line breaks quoted, quotes doubled; lines ended by CRLF.
 * None is an empty cell, booleans are `True`/`False`. Newer Spoolman versions put a `'` before text
 * a spreadsheet would run as a formula (`=…`, `+…`, `-…`, `@…`); that quote is not part of the value.
 */
import { checkRowCount, malformed, type Cell, type ExportRow, type ExportTable } from './table.js';

interface RawRecord {
  line: number;
  fields: string[];
}

const FORMULA_START = /^'[=+\-@\t\r]/;

/** Splits the text into records; a quote left open is a malformed file. */
function records(text: string): RawRecord[] {
  const out: RawRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let i = 0;
  let quoted = false;
  let quoteLine = 0;
  const endRecord = () => {
    fields.push(field);
    // A blank line is not a record (Python's reader skips it too).
    if (!(fields.length === 1 && fields[0] === '')) out.push({ line: start, fields });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        const next = text[i + 1];
        if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') throw malformed(`line ${line}: text after a closing quote`);
      } else {
        if (c === '\n') line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
    i++;
  }
  if (quoted) throw malformed(`line ${quoteLine}: a quoted cell is not closed`);
  if (field !== '' || fields.length > 0) endRecord();
  return out;
}

function cellOf(text: string): Cell {
  if (text === '') return null;
  return FORMULA_START.test(text) ? text.slice(1) : text;
}

export function parseCsv(text: string): ExportTable {
  const [head, ...body] = records(text);
  if (head === undefined) throw malformed('is empty');
  const names = head.fields.map((name) => name.trim());
  const seen = new Set<string>();
  for (const [i, name] of names.entries()) {
    if (name === '') throw malformed(`the header's column ${i + 1} has no name`);
    if (seen.has(name)) throw malformed(`the header names the column "${name}" twice`);
    seen.add(name);
  }
  checkRowCount(body.length);
  const rows: ExportRow[] = body.map((record, i) => {
    const width = record.fields.length;
    if (width !== names.length) {
      const problem = `line ${record.line} has ${width} cells; the header has ${names.length}`;
      return { row: i + 1, cells: new Map(), problem };
    }
    return { row: i + 1, cells: new Map(names.map((name, j) => [name, cellOf(record.fields[j])])), problem: null };
  });
  return { keys: seen, rows };
}
