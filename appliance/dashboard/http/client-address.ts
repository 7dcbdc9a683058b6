/**
 * The client's address, as the rate limiter and the login throttle key it. The socket's peer
 * address is used, never X-Forwarded-For: the appliance is reached directly on the LAN, and a
 * header any client can set would let it pick a fresh identity per request. uWS reports IPv4
 * peers of a dual-stack socket as IPv4-mapped IPv6 (often fully expanded); those become plain
 * IPv4 so one client has one key.
 */
import type { Request } from 'hyper-express';

const MAPPED_DOTTED = /^(?:0{1,4}:){5}ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_HEX = /^(?:0{1,4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** Canonical text of an address: IPv4-mapped IPv6 as IPv4, IPv6 as eight groups without leading zeros. */
export function normalizeAddress(text: string): string {
  const address = expandIpv6(text.trim().toLowerCase());
  const dotted = MAPPED_DOTTED.exec(address);
  if (dotted) return dotted[1];
  const hex = MAPPED_HEX.exec(address);
  if (hex) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  // Groups without leading zeros: uWS writes `0000:…:0001` where others write `::1`.
  return /^[0-9a-f:]+$/.test(address)
    ? address
        .split(':')
        .map((g) => parseInt(g, 16).toString(16))
        .join(':')
    : address;
}

/** `::ffff:7f00:1` → `0:0:0:0:0:ffff:7f00:1`, so the patterns above see eight groups. */
function expandIpv6(address: string): string {
  if (!address.includes('::')) return address;
  const [head, tail] = address.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  // A dotted IPv4 tail counts as two groups.
  const groups = left.length + right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  return [...left, ...Array<string>(Math.max(0, 8 - groups)).fill('0'), ...right].join(':');
}

/** Must be called while the request is being handled (uWS frees the address afterwards). */
export function clientAddress(request: Request): string {
  return normalizeAddress(request.ip);
}
