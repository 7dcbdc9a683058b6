/**
 * The QR code of a spool's link as a PNG: 256×256 pixels, error correction M (15 % of the code
 * may be dirty or torn, enough for a label on a spool that is handled), a quiet zone of four
 * modules as the standard asks, rendered by the `qrcode` package through pngjs.
 */
import QRCode from 'qrcode';

export const QR_SIZE_PX = 256;
export const QR_ERROR_CORRECTION = 'M';
export const QR_QUIET_ZONE_MODULES = 4;

export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: QR_ERROR_CORRECTION,
    width: QR_SIZE_PX,
    margin: QR_QUIET_ZONE_MODULES,
  });
}

export async function qrDataUrl(text: string): Promise<string> {
  return `data:image/png;base64,${(await qrPng(text)).toString('base64')}`;
}
