/**
 * Inheritance: a profile's effective settings are its ancestors' settings applied root first, each
 * child replacing whole values (arrays are never merged element by element).
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { ConfigPatch } from './schema.js';
import type { Profile } from './types.js';

export type ProfileLookup = (id: string) => Profile | undefined;

/** The chain from the root ancestor down to `profile` itself. */
export function inheritanceChain(profile: Profile, lookup: ProfileLookup): Profile[] {
  const chain: Profile[] = [profile];
  const seen = new Set<string>([profile.id]);
  let current = profile;
  while (current.inherits !== undefined) {
    const parentId = current.inherits;
    if (seen.has(parentId)) {
      const path = [...chain.map((p) => p.id), parentId].join(' → ');
      throw new AppError(ErrorCode.badRequest, 400, `profile "${profile.id}" has an inheritance cycle: ${path}`, { id: profile.id, cycle: path });
    }
    const parent = lookup(parentId);
    if (parent === undefined) {
      throw new AppError(ErrorCode.profileNotFound, 404, `profile "${current.id}" inherits from unknown profile "${parentId}"`, {
        id: current.id,
        parent: parentId,
      });
    }
    if (parent.kind !== current.kind) {
      throw new AppError(
        ErrorCode.badRequest,
        400,
        `profile "${current.id}" (${current.kind}) inherits from "${parentId}", which is a ${parent.kind} profile`,
        { id: current.id, parent: parentId },
      );
    }
    seen.add(parentId);
    chain.push(parent);
    current = parent;
  }
  return chain.reverse();
}

/** Settings of `profile` with everything it inherits applied underneath. */
export function resolveSettings(profile: Profile, lookup: ProfileLookup): ConfigPatch {
  const out: Record<string, unknown> = {};
  for (const link of inheritanceChain(profile, lookup)) {
    for (const [key, value] of Object.entries(link.settings)) out[key] = structuredClone(value);
  }
  return out as ConfigPatch;
}
