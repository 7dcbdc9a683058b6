/**
 * Finding a spool for the inventory tools: through the SpoolDirectory port only (the spools
 * themselves belong to the inventory feature), with the one not-found answer they all give.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { JsonSchema } from '../../http/route.js';
import type { SpoolDirectory, SpoolView } from '../spool.js';

/** Spool ids as /api/filaments has them: positive integers. */
export const SPOOL_ID_SCHEMA: JsonSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

export function requireSpool(spools: SpoolDirectory, id: number): SpoolView {
  const spool = spools.get(id);
  if (spool === null) throw new AppError(ErrorCode.notFound, 404, `no spool ${id}`);
  return spool;
}
