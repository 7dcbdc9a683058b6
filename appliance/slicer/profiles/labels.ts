/**
 * The texts of a profile that people read in lists and pickers (the slicer service's, the
 * dashboard's, the desktop bridge's): its name, vendor and printer model. They follow the rule for
 * names (common/names.ts: no control, bidirectional or invisible characters, not only whitespace),
 * so an imported or hand-written profile cannot pass itself off as another. A profile that breaks
 * it is skipped with the reason, like any other profile that cannot be used.
 */
import { nameProblem } from '../../common/names.js';
import type { Profile } from './types.js';

/** `name contains U+202E (right-to-left override)`, or null when the profile's texts are fine. */
export function profileLabelProblem(profile: Pick<Profile, 'name' | 'vendor' | 'printer_model'>): string | null {
  for (const field of ['name', 'vendor', 'printer_model'] as const) {
    const value = profile[field];
    const problem = value === undefined ? null : nameProblem(value);
    if (problem !== null) return `${field} ${problem}`;
  }
  return null;
}
