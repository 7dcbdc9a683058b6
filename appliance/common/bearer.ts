/**
 * Bearer-token checks. Both sides are hashed before the comparison so that it takes the same time
 * whatever the token's length or content: an attacker learns nothing from how fast a guess fails.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** True when `authorization` is `Bearer <token>` (scheme case-insensitive, as RFC 6750 allows). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^\s*bearer\s+(.+?)\s*$/i.exec(authorization ?? '');
  const given = match ? match[1] : '';
  return timingSafeEqual(digest(given), digest(token)) && match !== null;
}
