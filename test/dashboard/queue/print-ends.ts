/**
 * Stands in for history's `history.added` → `QueueService.printEnded` wiring (the lead's, after
 * the merge): follows `print.dispatched` to know which copy each printer prints, and ends it when
 * the printer reports a terminal `print.progress` state, or, for printers that report none (Bambu),
 * when its status leaves printing: `finished` → finished, `error` → failed, `idle` → cancelled.
 */
import type { DashboardServer } from '../../../appliance/dashboard/app.js';
import type { PrintEnd } from '../../../appliance/dashboard/queue/queue-service.js';
import type { PrinterStatus } from '../../../appliance/dashboard/printers/status.js';

const RUNNING = new Set<PrinterStatus['state']>(['preparing', 'printing', 'paused']);
const ENDS: Partial<Record<PrinterStatus['state'], PrintEnd['state']>> = { finished: 'finished', error: 'failed', idle: 'cancelled' };
const PROGRESS_ENDS = new Set(['finished', 'failed', 'cancelled', 'interrupted']);

export function followPrintEnds(server: DashboardServer): () => void {
  const { bus } = server.context;
  const printing = new Map<string, { job_id: string; copy: number; running: boolean }>();
  const end = (printerId: string, state: PrintEnd['state']) => {
    const current = printing.get(printerId);
    if (!current) return;
    printing.delete(printerId);
    void server.services.queue.printEnded({ printer_id: printerId, job_id: current.job_id, copy: current.copy, state });
  };
  const offs = [
    bus.on('print.dispatched', (d) => void printing.set(d.printer_id, { job_id: d.job_id, copy: d.copy, running: false })),
    bus.on('print.progress', (p) => {
      if (p.state && PROGRESS_ENDS.has(p.state)) end(p.printer_id, p.state as PrintEnd['state']);
    }),
    bus.on('printer.status', (s) => {
      const current = printing.get(s.printer_id);
      if (!current) return;
      if (RUNNING.has(s.state)) current.running = true;
      else if (current.running && ENDS[s.state]) end(s.printer_id, ENDS[s.state] as PrintEnd['state']);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
