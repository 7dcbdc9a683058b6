/**
 * Where the Node-RED editor (the automation service, `../../automation/`) is, as the browser that
 * asked reaches it: the setting `automation.node_red_url` when set (a DNS name, a proxy, another
 * port), otherwise the host the request came to on port 1880, the launcher's default. The
 * dashboard does not proxy the editor (see the launcher's README): the link goes to Node-RED's own
 * port, and the web app adds the admin's session as `?access_token=` for the one sign-in.
 */

export const NODE_RED_DEFAULT_PORT = 1880;

/** The editor's base URL without a trailing slash; null when the setting is no http(s) URL or the Host header is unusable. */
export function nodeRedUrl(configured: string, hostHeader: string | undefined): string | null {
  const setting = configured.trim();
  if (setting !== '') {
    try {
      const url = new URL(setting);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return null;
    }
  }
  let host: string;
  try {
    host = new URL(`http://${hostHeader?.trim() ?? ''}`).hostname;
  } catch {
    return null;
  }
  return host === '' ? null : `http://${host}:${NODE_RED_DEFAULT_PORT}`;
}
