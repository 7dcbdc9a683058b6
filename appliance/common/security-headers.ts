/**
 * Headers every response of both services carries, so that a browser never sniffs an answer into
 * something executable, never frames a page of the box (clickjacking) and never leaks the box's
 * URLs to other sites. API answers may not load or run anything; the API docs get PAGE_CSP and the
 * web app the stricter APP_CSP, which allow only what the box serves itself: the box is often
 * offline, so nothing comes from elsewhere anyway.
 */
import type { MiddlewareHandler } from 'hyper-express';

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Scripts only from the box and never inline; inline style attributes are allowed because the
 * bundled UI libraries (Swagger UI) set them; images may be data: or blob: URLs made in the page.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web app's pages: everything from the box, nothing inline, not even style attributes (the
 * app sets styles through the CSSOM, which CSP does not govern). `connect-src 'self'` covers the
 * WebSocket at /ws on the same host and port.
 */
export const APP_CSP = PAGE_CSP.replace("style-src 'self' 'unsafe-inline'", "style-src 'self'");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': API_CSP,
};

/** Sets the headers on every response; a page's route replaces the CSP with PAGE_CSP. */
export const securityHeaders: MiddlewareHandler = (_request, response, next) => {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.header(name, value, true);
  next();
};
