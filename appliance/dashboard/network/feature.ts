/**
 * The `network` feature: the box's presence on the LAN (presence.ts). Its start reads the box
 * id; announcing begins once the dashboard listens (app.ts calls `presence.listening`), and the
 * goodbye goes out when it stops. One route lists the slicer services other boxes announce, so
 * a farm of several boxes can point its slicer integration (PATCH /api/slicer/remote/config) at
 * another box.
 */
import type { DashboardFeature } from '../feature.js';
import type { JsonSchema } from '../http/route.js';
import type { NetworkPresence } from './presence.js';

const STRINGS_OR_NULL: JsonSchema = { type: ['string', 'null'] };

export const OTHER_SLICERS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['mdns', 'boxes'],
  properties: {
    mdns: {
      type: 'object',
      description: 'Whether this box browses at all (setting mdns.enabled) and why not.',
      required: ['running', 'note'],
      properties: { running: { type: 'boolean' }, note: { type: 'string' } },
    },
    boxes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'box', 'box_id', 'url', 'host', 'port', 'addresses', 'version', 'last_seen'],
        properties: {
          name: { type: 'string', description: 'DNS-SD instance name' },
          box: STRINGS_OR_NULL,
          box_id: STRINGS_OR_NULL,
          url: { type: 'string', description: 'the value for slicer_service.url' },
          host: { type: 'string' },
          port: { type: 'integer' },
          addresses: { type: 'array', items: { type: 'string' } },
          version: STRINGS_OR_NULL,
          last_seen: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};

export function createNetworkFeature(presence: NetworkPresence): DashboardFeature {
  return {
    name: 'network',
    routes: [
      {
        method: 'get',
        path: '/api/slicer/remote/discovered',
        level: 'admin',
        tag: 'network',
        summary: 'Slicer services of other boxes on the LAN',
        description:
          'The `_pyard-slicer._tcp` services other Printyard boxes announce over mDNS (this box left out). ' +
          "Admins only, as using one means changing the slicer integration; that box's token is still needed.",
        responses: { 200: { description: 'OK', schema: OTHER_SLICERS_SCHEMA } },
        handler: () => {
          const { running, note } = presence.state();
          return { mdns: { running, note }, boxes: presence.otherSlicers() };
        },
      },
    ],
    start: () => presence.open(),
    stop: () => presence.stop(),
    info: () => ({ box_id: presence.id, mdns: presence.state() }),
  };
}
