/**
 * The history feature: the routes over the print history service, which services.ts makes (it
 * needs the printers' names and the spool ledger) and this feature opens and stops.
 */
import type { DashboardFeature } from '../feature.js';
import type { PrintHistory } from './history.js';
import { historyRoutes } from './routes.js';

export function createHistoryFeature(history: PrintHistory): DashboardFeature {
  return {
    name: 'history',
    routes: historyRoutes(history),
    start: () => history.open(),
    stop: () => history.stop(),
    info: () => history.info(),
  };
}
