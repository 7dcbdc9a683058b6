/**
 * Print durations as PrusaSlicer writes them in G-code comments ("1d 2h 3m 4s", "5m 0s", "12s"):
 * Moonraker, OctoPrint plugins and printer screens parse this form.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) throw new AppError(ErrorCode.internal, 500, `cannot format a duration of ${seconds} s`);
  let rest = Math.max(0, Math.round(seconds));
  const days = Math.floor(rest / 86400);
  rest -= days * 86400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const secs = rest - minutes * 60;
  if (days > 0) return `${days}d ${hours}h ${minutes}m ${secs}s`;
  if (hours > 0) return `${hours}h ${minutes}m ${secs}s`;
  if (minutes > 0) return `${minutes}m ${secs}s`;
  return `${secs}s`;
}
