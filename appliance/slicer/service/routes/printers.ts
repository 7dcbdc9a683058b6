/** GET /api/printers: the printer bindings of the config dir, secrets left out. */
import type { RouteInstaller } from '../context.js';
import { printerView } from '../printers.js';

export const installPrinterRoutes: RouteInstaller = (app, ctx) => {
  app.get('/api/printers', (_req, res) => {
    const printerIds = new Set(ctx.config.catalogue.list({ kind: 'printer' }).map((p) => p.id));
    res.json({ printers: ctx.config.printers.map((p) => printerView(p, printerIds.has(p.printer_profile))) });
  });
};
