/**
 * The slicer service's address as the dashboard handles it: its origin (scheme, host and port),
 * which a kept token is bound to, and its printable form, which never carries a user name or
 * password (the token goes in `Authorization`, never in the URL).
 */

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True when the URL names a user or a password (`http://user:pass@host`). */
export function hasCredentials(url: string): boolean {
  const target = parsed(url);
  return target !== null && (target.username !== '' || target.password !== '');
}

/** The URL without a user name or password, as logs, messages and the status show it. */
export function displayUrl(url: string): string {
  const target = parsed(url);
  if (target === null || !hasCredentials(url)) return url;
  target.username = '';
  target.password = '';
  return target.toString();
}

/** Scheme, host and port (default ports included): where a token may go once it was given for it. */
export function originOf(url: string): string | null {
  const origin = parsed(url)?.origin;
  // Schemes without an origin (not http or https) have the opaque origin "null": never the same.
  return origin === undefined || origin === 'null' ? null : origin;
}

export function sameOrigin(a: string, b: string): boolean {
  const origin = originOf(a);
  return origin !== null && origin === originOf(b);
}
