import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../appliance/common/errors.js';
import { inheritanceChain, resolveSettings } from '../../../appliance/slicer/profiles/resolve.js';
import type { Profile } from '../../../appliance/slicer/profiles/types.js';

function profile(id: string, settings: Profile['settings'], inherits?: string, kind: Profile['kind'] = 'printer'): Profile {
  return { id, kind, name: id, vendor: 'Test', instantiable: true, is_default: false, source: 'user', settings, ...(inherits ? { inherits } : {}) };
}

function lookupOf(...profiles: Profile[]): (id: string) => Profile | undefined {
  const map = new Map(profiles.map((p) => [p.id, p]));
  return (id) => map.get(id);
}

test('the chain runs from the root ancestor to the profile', () => {
  const root = profile('root', {});
  const mid = profile('mid', {}, 'root');
  const leaf = profile('leaf', {}, 'mid');
  assert.deepEqual(
    inheritanceChain(leaf, lookupOf(root, mid, leaf)).map((p) => p.id),
    ['root', 'mid', 'leaf'],
  );
});

test('children replace whole values, arrays included', () => {
  const root = profile('root', { retraction_length: [0.8, 0.9], printable_height: 200, z_offset: 0.1 });
  const leaf = profile('leaf', { retraction_length: [2], printable_height: 250 }, 'root');
  const resolved = resolveSettings(leaf, lookupOf(root, leaf));
  assert.deepEqual(resolved, { retraction_length: [2], printable_height: 250, z_offset: 0.1 });
});

test('resolved settings are copies: changing them leaves the profiles alone', () => {
  const root = profile('root', { retraction_length: [0.8] });
  const leaf = profile('leaf', {}, 'root');
  const resolved = resolveSettings(leaf, lookupOf(root, leaf));
  resolved.retraction_length!.push(5);
  assert.deepEqual(root.settings.retraction_length, [0.8]);
});

test('a cycle is an error naming the profile and the loop', () => {
  const a = profile('a', {}, 'b');
  const b = profile('b', {}, 'a');
  assert.throws(
    () => resolveSettings(a, lookupOf(a, b)),
    (err: unknown) => err instanceof AppError && err.code === 'ERR_BAD_REQUEST' && /profile "a"/.test(err.message) && /a → b → a/.test(err.message),
  );
});

test('an unknown parent is an error naming the profile and the parent', () => {
  const leaf = profile('leaf', {}, 'ghost');
  assert.throws(
    () => resolveSettings(leaf, lookupOf(leaf)),
    (err: unknown) =>
      err instanceof AppError &&
      err.code === 'ERR_PROFILE_NOT_FOUND' &&
      err.status === 404 &&
      err.message === 'profile "leaf" inherits from unknown profile "ghost"',
  );
});

test('a parent of another kind is refused', () => {
  const base = profile('base', {}, undefined, 'filament');
  const leaf = profile('leaf', {}, 'base');
  assert.throws(() => resolveSettings(leaf, lookupOf(base, leaf)), /"leaf" \(printer\) inherits from "base", which is a filament profile/);
});
