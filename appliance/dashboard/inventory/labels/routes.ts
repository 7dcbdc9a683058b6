/**
 * A spool's QR code and printable label (view level: printing a label changes nothing). Both carry
 * the link that opens the spool in the web UI (spool-link.ts). The label is also reached through a
 * short-lived ticket (label-ticket.ts), for a browser window that cannot send credentials.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { PAGE_CSP } from '../../../common/security-headers.js';
import { Reply, type RouteSpec } from '../../http/route.js';
import type { Settings } from '../../settings/settings.js';
import type { SpoolDirectory } from '../spool.js';
import { LABEL_HEIGHT_MM, LABEL_WIDTH_MM, labelPage } from './label-page.js';
import { LABEL_TICKET_MS, LabelTickets } from './label-ticket.js';
import { QR_SIZE_PX, qrDataUrl, qrPng } from './qr.js';
import { publicBaseUrl, spoolLink } from './spool-link.js';
import { requireSpool, SPOOL_ID_SCHEMA } from './spool-lookup.js';

export interface LabelDeps {
  spools: SpoolDirectory;
  settings: Pick<Settings, 'current'>;
  tag: string;
}

const errorSchemaRef = { $ref: '#/components/schemas/Error' };
const LINK_RULE =
  'It holds the link `<base>/spools/<id>` (the spool in the web app), where the base is the setting dashboard.public_url, ' +
  'or `http://<Host header>` when it is empty.';

export function labelRoutes({ spools, settings, tag }: LabelDeps): RouteSpec[] {
  const notFound = { description: 'No such spool (ERR_NOT_FOUND).', schema: errorSchemaRef };
  const link = (id: number, host: string | undefined) => spoolLink(publicBaseUrl(settings, host), id);
  const tickets = new LabelTickets();
  const page = async (id: number, host: string | undefined) => {
    const spool = requireSpool(spools, id);
    const html = labelPage(spool, await qrDataUrl(link(spool.id, host)));
    return new Reply(200, html, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' });
  };
  return [
    {
      method: 'get',
      path: '/api/inventory/spools/:id/qr.png',
      level: 'view',
      tag,
      summary: "A spool's QR code (PNG)",
      description: `${QR_SIZE_PX}×${QR_SIZE_PX} pixels, error correction M, a quiet zone of 4 modules. ${LINK_RULE}`,
      params: { id: SPOOL_ID_SCHEMA },
      responses: { 200: { description: 'The PNG.', contentType: 'image/png' }, 404: notFound },
      async handler({ params, req }) {
        const spool = requireSpool(spools, Number(params.id));
        const png = await qrPng(link(spool.id, req.headers.host));
        return new Reply(200, png, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      },
    },
    {
      method: 'get',
      path: '/api/inventory/spools/:id/label',
      level: 'view',
      tag,
      summary: "A spool's printable label (HTML)",
      description:
        `One page of ${LABEL_WIDTH_MM}×${LABEL_HEIGHT_MM} mm (\`@page\` size, no margin) for 62 mm label printers: the QR code, ` +
        `material, colour swatch, remaining weight and short id. ${LINK_RULE}`,
      params: { id: SPOOL_ID_SCHEMA },
      responses: { 200: { description: 'The page.', contentType: 'text/html' }, 404: notFound },
      handler: ({ params, req }) => page(Number(params.id), req.headers.host),
    },
    {
      method: 'post',
      path: '/api/inventory/spools/:id/label-link',
      level: 'view',
      tag,
      summary: "A short-lived link to a spool's label, to open in a new window",
      description:
        `A window the web app opens cannot send the session's credentials: this link shows the label of this one spool, without them, ` +
        `for ${LABEL_TICKET_MS / 1000} s (and until the dashboard restarts).`,
      params: { id: SPOOL_ID_SCHEMA },
      responses: {
        200: {
          description: 'The link (a path on this dashboard) and its expiry.',
          schema: {
            type: 'object',
            required: ['url', 'expires_at'],
            properties: { url: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' } },
          },
        },
        404: notFound,
      },
      handler: ({ params }) => {
        const spool = requireSpool(spools, Number(params.id));
        const { ticket, expiresAt } = tickets.issue(spool.id);
        return { url: `/api/inventory/labels/${ticket}`, expires_at: expiresAt.toISOString() };
      },
    },
    {
      method: 'get',
      path: '/api/inventory/labels/:ticket',
      level: 'public',
      tag,
      summary: "A spool's label through a link of POST /api/inventory/spools/{id}/label-link",
      params: { ticket: { type: 'string', minLength: 1, maxLength: 200 } },
      responses: {
        200: { description: 'The page.', contentType: 'text/html' },
        404: { description: 'The link is not valid, has expired, or its spool is gone (ERR_NOT_FOUND).', schema: errorSchemaRef },
      },
      handler: ({ params, req }) => {
        const id = tickets.spoolOf(params.ticket);
        if (id === null)
          throw new AppError(ErrorCode.notFound, 404, 'this label link is not valid or has expired: open the label again from the spool');
        return page(id, req.headers.host);
      },
    },
  ];
}
