/**
 * A request to the printer (published on `device/<serial>/request`), with the effect that
 * confirms it when the reply is lost. Built by the fleet actions (bambu-actions.ts) and filament
 * changes (filament-change.ts), sent by the driver.
 */
import type { Json } from './report-state.js';

export interface BambuRequest {
  kind: 'print' | 'system';
  command: string;
  params: Json;
  /** True once a report shows the request took effect; absent when nothing visible changes. */
  confirm?: (print: Json) => boolean;
}
