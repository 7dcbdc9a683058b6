/**
 * The `printer_discovery` feature: `GET /api/printers/discover` (printer-discovery.ts). Admins
 * only: probing opens serial ports, and what it returns is for adding printers, which is an
 * admin's. The SSDP listener starts once the dashboard listens (app.ts) and stops with the feature.
 */
import type { DashboardFeature } from '../../feature.js';
import type { JsonSchema } from '../../http/route.js';
import type { PrinterDiscovery } from './printer-discovery.js';

const NULLABLE_STRING: JsonSchema = { type: ['string', 'null'] };
const ADD_BODY: JsonSchema = {
  type: ['object', 'null'],
  description: 'A body for POST /api/printers (a Bambu Lab printer still needs `connection.access_code`); null when already added or not a printer.',
};

export const DISCOVER_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['bambu', 'serial'],
  properties: {
    bambu: {
      type: 'object',
      required: ['listening', 'port', 'error', 'printers'],
      properties: {
        listening: { type: 'boolean', description: 'Whether the SSDP listener (UDP 2021) runs.' },
        address: NULLABLE_STRING,
        port: { type: 'integer' },
        error: NULLABLE_STRING,
        printers: {
          type: 'array',
          items: {
            type: 'object',
            required: ['serial', 'host', 'model', 'name', 'added', 'printer_id', 'add'],
            properties: {
              serial: { type: 'string' },
              host: { type: 'string' },
              model: NULLABLE_STRING,
              model_code: NULLABLE_STRING,
              name: NULLABLE_STRING,
              firmware: NULLABLE_STRING,
              connect_mode: NULLABLE_STRING,
              signal_dbm: { type: ['number', 'null'] },
              last_seen: { type: 'string', format: 'date-time' },
              added: { type: 'boolean' },
              printer_id: NULLABLE_STRING,
              add: ADD_BODY,
            },
          },
        },
      },
    },
    serial: {
      type: 'object',
      required: ['error', 'ports'],
      properties: {
        error: NULLABLE_STRING,
        ports: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'in_use_by', 'probe', 'add'],
            properties: {
              path: { type: 'string' },
              by_id_path: NULLABLE_STRING,
              vendor_id: NULLABLE_STRING,
              product_id: NULLABLE_STRING,
              manufacturer: NULLABLE_STRING,
              serial_number: NULLABLE_STRING,
              in_use_by: { ...NULLABLE_STRING, description: 'The id of the configured printer on this port: not probed.' },
              probe: {
                type: ['object', 'null'],
                description: 'The M115 answer: `marlin`, and `firmware`, `machine_type`, `extruder_count`, `uuid`, `capabilities` or a `reason`.',
              },
              add: ADD_BODY,
            },
          },
        },
      },
    },
  },
};

export function createPrinterDiscoveryFeature(discovery: PrinterDiscovery): DashboardFeature {
  return {
    name: 'printer_discovery',
    routes: [
      {
        method: 'get',
        path: '/api/printers/discover',
        level: 'admin',
        tag: 'printers',
        summary: 'Printers this box could add: Bambu Lab printers on the LAN, Marlin printers on serial ports',
        description:
          'Bambu Lab printers heard announcing themselves over SSDP (UDP 2021) in the last five minutes, and the serial ports ' +
          'probed with M115 (up to 6 s) — except those a configured printer uses. `probe=false` lists the ports without opening them ' +
          '(opening a port resets most boards).',
        query: { probe: { type: 'string', enum: ['true', 'false'], description: 'Probe the serial ports (default true).' } },
        responses: { 200: { description: 'OK', schema: DISCOVER_SCHEMA } },
        handler: ({ query }) => discovery.discover(query.probe !== 'false'),
      },
    ],
    start: async () => discovery.open(),
    stop: () => discovery.stop(),
  };
}
