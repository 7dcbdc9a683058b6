/**
 * The INI dialect of PrusaSlicer vendor bundles: `[type:name]` sections of `key = value` lines,
 * `#`/`;` comments, CRLF or LF, strings optionally quoted with C-style escapes (`\n`, `\"`).
 */

export interface IniSection {
  /** `vendor`, `printer_model`, `print`, `filament`, `printer`, `sla_print`, ... */
  type: string;
  /** Text after the first colon of the header; empty for `[vendor]`. */
  name: string;
  /** 1-based line of the header, for messages. */
  line: number;
  values: Map<string, string>;
}

export function readIni(text: string): IniSection[] {
  const sections: IniSection[] = [];
  let current: IniSection | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      const header = line.slice(1, -1);
      const colon = header.indexOf(':');
      current = {
        type: (colon < 0 ? header : header.slice(0, colon)).trim(),
        name: colon < 0 ? '' : header.slice(colon + 1).trim(),
        line: i + 1,
        values: new Map(),
      };
      sections.push(current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0 || current === undefined) continue;
    current.values.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return sections;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"' };

function decodeEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === '\\' && next !== undefined && ESCAPES[next] !== undefined) {
      out += ESCAPES[next];
      i++;
    } else {
      out += ch;
    }
  }
  return out;
}

/** A string value: surrounding quotes removed, escapes decoded. */
export function decodeIniString(raw: string): string {
  const quoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"');
  return decodeEscapes(quoted ? raw.slice(1, -1) : raw);
}

/** A `;`-separated list whose items may be quoted: `a; b` or `"a";"b"`. */
export function splitIniList(raw: string): string[] {
  const items: string[] = [];
  let i = 0;
  while (i < raw.length) {
    while (i < raw.length && (raw[i] === ' ' || raw[i] === ';')) i++;
    if (i >= raw.length) break;
    if (raw[i] === '"') {
      let j = i + 1;
      while (j < raw.length && raw[j] !== '"') j += raw[j] === '\\' ? 2 : 1;
      items.push(decodeEscapes(raw.slice(i + 1, j)));
      i = j + 1;
    } else {
      const end = raw.indexOf(';', i);
      const item = raw.slice(i, end < 0 ? raw.length : end).trim();
      if (item !== '') items.push(item);
      i = end < 0 ? raw.length : end;
    }
  }
  return items;
}
