/**
 * The link a spool's QR code and label carry: the page of the web UI that opens that spool,
 * `<base>/spools/<id>` (labels printed before the web app carry `/#/spools/<id>`, which the app
 * still opens). The base is the `dashboard.public_url` setting when it is set (the name
 * people reach the box by, behind a proxy or with a DNS name), otherwise the host the request came
 * to, over plain http (the box serves http itself; a TLS proxy in front sets the setting).
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { Settings } from '../../settings/settings.js';

/** What a Host header may hold: a name or IPv4 address, or a bracketed IPv6 address, and a port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The base URL without a trailing slash, or an error naming what is wrong with the setting. */
export function publicBaseUrl(settings: Pick<Settings, 'current'>, hostHeader: string | undefined): string {
  const configured = settings.current.dashboard.public_url.trim();
  if (configured !== '') {
    let url: URL;
    try {
      url = new URL(configured);
    } catch {
      throw new AppError(ErrorCode.internal, 500, `the setting dashboard.public_url (${JSON.stringify(configured)}) is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new AppError(ErrorCode.internal, 500, `the setting dashboard.public_url must be an http or https URL, not ${url.protocol}`);
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }
  const host = hostHeader?.trim() ?? '';
  if (!HOST.test(host)) {
    throw new AppError(ErrorCode.validation, 400, 'the request has no usable Host header; set dashboard.public_url for links to spools');
  }
  return `http://${host}`;
}

/** The web UI's route of one spool. */
export function spoolLink(baseUrl: string, spoolId: number): string {
  return `${baseUrl}/spools/${spoolId}`;
}
