/** The expiring spools (view level). */
import type { RouteSpec } from '../../http/route.js';
import type { SpoolDirectory } from '../spool.js';
import { DEFAULT_WITHIN_DAYS, expiringSpools, MAX_WITHIN_DAYS } from './expiring.js';

export function expiryRoutes(spools: SpoolDirectory, now: () => Date, tag: string): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/inventory/spools/expiring',
      level: 'view',
      tag,
      summary: 'Spools that expire soon or have expired',
      description:
        `Spools not archived whose expiry_date is at most \`within\` days from today (UTC), expired ones included and marked; ` + 'soonest first.',
      query: { within: { type: 'integer', minimum: 0, maximum: MAX_WITHIN_DAYS, default: DEFAULT_WITHIN_DAYS, description: 'Days ahead.' } },
      responses: {
        200: {
          description: 'The spools, each with its date, days left (negative once expired) and whether it has expired.',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['today', 'within', 'items'],
            properties: {
              today: { type: 'string', description: 'YYYY-MM-DD (UTC).' },
              within: { type: 'integer' },
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['expiry_date', 'days_left', 'expired', 'spool'],
                  properties: {
                    expiry_date: { type: 'string' },
                    days_left: { type: 'integer' },
                    expired: { type: 'boolean' },
                    spool: { type: 'object', description: 'The spool as /api/filaments shows it.' },
                  },
                },
              },
            },
          },
        },
      },
      handler({ query }) {
        const within = query.within === undefined ? DEFAULT_WITHIN_DAYS : Number(query.within);
        return { within, ...expiringSpools(spools, within, now()) };
      },
    },
  ];
}
