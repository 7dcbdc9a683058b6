/** Content negotiation on the Accept header (RFC 9110 §12.5.1), for the few types a route offers. */

interface Range {
  type: string;
  q: number;
}

function parseAccept(header: string): Range[] {
  const out: Range[] = [];
  for (const part of header.split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!type) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([01](\.\d{0,3})?)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    out.push({ type, q });
  }
  return out;
}

function specificity(range: string, type: string): number {
  if (range === type) return 3;
  if (range.endsWith('/*') && type.startsWith(range.slice(0, -1))) return 2;
  return range === '*/*' ? 1 : 0;
}

/** The quality the header gives `type`: that of the most specific matching range, 0 if none. */
function quality(ranges: Range[], type: string): number {
  let best = 0;
  let q = 0;
  for (const r of ranges) {
    const s = specificity(r.type, type);
    if (s > best) {
      best = s;
      q = r.q;
    }
  }
  return q;
}

/**
 * The offered type the client prefers; ties go to the earlier offer, so the first offer is also
 * the answer for a missing header or `*\/*`. Null when the client accepts none of them.
 */
export function negotiate<T extends string>(acceptHeader: string | undefined, offers: readonly T[]): T | null {
  if (!acceptHeader || acceptHeader.trim() === '') return offers[0] ?? null;
  const ranges = parseAccept(acceptHeader);
  let chosen: T | null = null;
  let bestQ = 0;
  for (const offer of offers) {
    const q = quality(ranges, offer);
    if (q > bestQ) {
      bestQ = q;
      chosen = offer;
    }
  }
  return chosen;
}
