/**
 * Settings the engine does not implement yet. A print that would come out different from what
 * the setting asks for is refused; one that only loses an optimisation slices with a warning.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { PrintConfig } from '../../profiles/schema.js';

export function checkSupported(c: PrintConfig): string[] {
  if (c.spiral_mode) {
    throw new AppError(ErrorCode.invalidSetting, 400, 'invalid value for setting "spiral_mode": spiral vase mode is not supported yet', {
      key: 'spiral_mode',
    });
  }
  const warnings: string[] = [];
  if (c.reduce_crossing_wall)
    warnings.push('reduce_crossing_wall (avoid crossing walls) is not supported: travels go straight and retract when they leave an island');
  return warnings;
}
