/**
 * The CSV export (RFC 4180): a header row, CRLF line ends, a field quoted when it holds a comma,
 * a quote, CR or LF, quotes inside doubled. UTF-8 with a byte-order mark first, so spreadsheets
 * (Excel above all) read non-ASCII file names right. Rows are produced one batch at a time as the
 * reader asks for them (a pull stream), so an export of any size holds one batch in memory and
 * waits while the client is slow.
 */
import { Readable } from 'node:stream';
import { slotLabel } from '../printers/filament-slot.js';
import { totalGrams, type HistoryRecord } from './record.js';

export const CSV_COLUMNS = [
  'id',
  'printer_id',
  'printer_name',
  'printer_type',
  'file',
  'state',
  'started_by',
  'user',
  'job_id',
  'copy',
  'started_at',
  'ended_at',
  'duration_s',
  'estimate_s',
  'progress',
  'filament_g',
  'filament',
  'spool_ids',
  'materials',
  'cost',
  'error',
] as const;

/** Rows per chunk handed to the socket: large enough to keep it busy, small enough to stay tiny. */
const ROWS_PER_CHUNK = 200;
const BOM = '\uFEFF';

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Per slot `T0 PLA #ff0000 12.5g`, slots joined by `; `. */
function filamentText(record: HistoryRecord): string {
  return record.filament
    .map((f) => [slotLabel(f.slot), f.material, f.color_hex, f.grams === null ? null : `${f.grams}g`].filter((part) => part !== null).join(' '))
    .join('; ');
}

export function csvRow(record: HistoryRecord): string {
  const unique = (values: (string | number | null)[]) => [...new Set(values.filter((v) => v !== null))].join(' ');
  const fields: (string | number | null)[] = [
    record.id,
    record.printer_id,
    record.printer_name,
    record.printer_type,
    record.file,
    record.state,
    record.started_by.kind,
    record.started_by.user,
    record.started_by.job_id,
    record.started_by.copy,
    record.started_at,
    record.ended_at,
    record.duration_s,
    record.estimate_s,
    record.progress,
    Math.round(totalGrams(record) * 1000) / 1000,
    filamentText(record),
    unique(record.filament.map((f) => f.spool_id)),
    unique(record.filament.map((f) => f.material)),
    record.cost,
    record.error,
  ];
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The export of `records` as a stream of UTF-8 chunks, header first. */
export function csvStream(records: readonly HistoryRecord[]): Readable {
  let next = -1;
  return new Readable({
    read() {
      if (next === -1) {
        next = 0;
        this.push(Buffer.from(`${BOM}${CSV_COLUMNS.join(',')}\r\n`, 'utf8'));
        return;
      }
      if (next >= records.length) {
        this.push(null);
        return;
      }
      let chunk = '';
      const end = Math.min(records.length, next + ROWS_PER_CHUNK);
      for (; next < end; next++) chunk += csvRow(records[next] as HistoryRecord);
      this.push(Buffer.from(chunk, 'utf8'));
    },
  });
}
