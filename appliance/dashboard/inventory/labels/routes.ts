/**
 * A spool's QR code and printable label (view level: printing a label changes nothing). Both carry
 * the link that opens the spool in the web UI (spool-link.ts).
 */
import { PAGE_CSP } from '../../../common/security-headers.js';
import { Reply, type RouteSpec } from '../../http/route.js';
import type { Settings } from '../../settings/settings.js';
import type { SpoolDirectory } from '../spool.js';
import { LABEL_HEIGHT_MM, LABEL_WIDTH_MM, labelPage } from './label-page.js';
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
  'It holds the link `<base>/#/spools/<id>`, where the base is the setting dashboard.public_url, or `http://<Host header>` when it is empty.';

export function labelRoutes({ spools, settings, tag }: LabelDeps): RouteSpec[] {
  const notFound = { description: 'No such spool (ERR_NOT_FOUND).', schema: errorSchemaRef };
  const link = (id: number, host: string | undefined) => spoolLink(publicBaseUrl(settings, host), id);
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
      async handler({ params, req }) {
        const spool = requireSpool(spools, Number(params.id));
        const page = labelPage(spool, await qrDataUrl(link(spool.id, req.headers.host)));
        return new Reply(200, page, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' });
      },
    },
  ];
}
