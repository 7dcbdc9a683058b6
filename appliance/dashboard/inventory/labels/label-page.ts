/**
 * A spool's label as a printable HTML page for 62 mm label printers (Brother QL and the like):
 * `@page { size: 62mm 29mm; margin: 0 }`, the QR code of the spool's link on the left, and on the
 * right the material, a colour swatch, the remaining weight and the short id, large enough to be
 * typed at a printer. Everything the spool's owner typed is escaped; a colour reaches the style
 * only when it is a `#rrggbb` value. The page is self-contained (inline style, the QR code as a
 * data: URL), so the page CSP of common/security-headers.ts lets it render and nothing is fetched.
 */
import type { SpoolView } from '../spool.js';

export const LABEL_WIDTH_MM = 62;
export const LABEL_HEIGHT_MM = 29;

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The swatch's CSS background: one colour, stripes of a multi-colour filament, or none. */
function swatchBackground(spool: SpoolView): string | null {
  const colors = (spool.multi_color_hexes.length > 1 ? spool.multi_color_hexes : [spool.color_hex]).filter(
    (c): c is string => c !== null && HEX_COLOR.test(c),
  );
  if (colors.length === 0) return null;
  if (colors.length === 1) return colors[0];
  return `linear-gradient(90deg, ${colors.join(', ')})`;
}

function grams(value: number): string {
  return `${Math.round(value)} g`;
}

const STYLE = `
@page { size: ${LABEL_WIDTH_MM}mm ${LABEL_HEIGHT_MM}mm; margin: 0 }
* { box-sizing: border-box; margin: 0; padding: 0 }
html, body { width: ${LABEL_WIDTH_MM}mm; height: ${LABEL_HEIGHT_MM}mm; overflow: hidden; background: #fff; color: #000 }
body { display: flex; align-items: center; font-family: 'DejaVu Sans', Arial, sans-serif; padding: 1mm }
img.qr { width: 27mm; height: 27mm; flex: none; image-rendering: pixelated }
.text { flex: 1; min-width: 0; padding-left: 1.5mm; display: flex; flex-direction: column; gap: 0.6mm }
.material { font-size: 11pt; font-weight: bold; display: flex; align-items: center; gap: 1.5mm; white-space: nowrap; overflow: hidden }
.swatch { width: 4mm; height: 4mm; flex: none; border: 0.2mm solid #000 }
.swatch.unknown { background: repeating-linear-gradient(45deg, #fff 0 0.5mm, #999 0.5mm 1mm) }
.name { font-size: 6.5pt; white-space: nowrap; overflow: hidden; text-overflow: ellipsis }
.weight { font-size: 9pt }
.short-id { font-family: 'DejaVu Sans Mono', monospace; font-size: 13pt; font-weight: bold; letter-spacing: 0.3mm }
`;

/** The whole page; `qrDataUrl` is the PNG of the spool's link (qr.ts). */
export function labelPage(spool: SpoolView, qrDataUrl: string): string {
  const background = swatchBackground(spool);
  const swatch =
    background === null
      ? '<span class="swatch unknown" title="colour unknown"></span>'
      : `<span class="swatch" style="background: ${background}"></span>`;
  const description = [spool.vendor, spool.name].filter((part): part is string => part !== null && part !== '').join(' · ');
  const expiry = spool.expiry_date === null ? '' : ` · exp. ${escapeHtml(spool.expiry_date)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Spool ${escapeHtml(spool.short_id)}</title>
<style>${STYLE}</style>
</head>
<body>
<img class="qr" src="${qrDataUrl}" alt="QR code of spool ${escapeHtml(spool.short_id)}">
<div class="text">
<div class="material">${swatch}<span>${escapeHtml(spool.material)}</span></div>
<div class="name">${escapeHtml(description)}</div>
<div class="weight">${grams(spool.remaining_weight_g)} of ${grams(spool.initial_weight_g)}${expiry}</div>
<div class="short-id">${escapeHtml(spool.short_id)}</div>
</div>
</body>
</html>
`;
}
