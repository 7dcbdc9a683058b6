// The one set of settings the benchmark slices with, and the config our engine resolves from it.
// Peers get the values of exactly this resolved config (peer-config.mjs), so the profile ids and
// overrides below are the single source for our CLI arguments and for the peers' settings.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Besides the 15 % infill of the issue, settings of the profile that a peer cannot express are set
 * to what it can (each would otherwise be a caveat printed by peer-config): the first layer's
 * infill at the first layer speed (peers have one first-layer speed), no automatic brim, and
 * PrusaSlicer 2.5's only vertical shell mode (CuraEngine has none either way).
 */
export const BENCH_PROFILE = {
  printerId: 'generic-marlin-0.4',
  filamentId: 'generic-pla',
  processId: '0.20mm-standard',
  overrides: [
    ['sparse_infill_density', '15%'],
    ['initial_layer_infill_speed', '30'],
    ['brim_type', 'no_brim'],
    ['ensure_vertical_shell_thickness', 'ensure_all'],
  ],
};

/** The compiled modules the bench uses, under the build folder `dist` (or another --dist). */
export function distPaths(root, dist) {
  const base = join(root, dist, 'appliance', 'slicer');
  return {
    cli: join(base, 'cli', 'printyard-slice.js'),
    catalogue: join(base, 'profiles', 'catalogue.js'),
    schema: join(base, 'profiles', 'schema.js'),
  };
}

/** Arguments of our CLI after `node`, for one model. */
export function oursCliArgs(cliPath, model, output, profile = BENCH_PROFILE) {
  return [
    cliPath,
    model,
    '-o',
    output,
    '--printer',
    profile.printerId,
    '--filament',
    profile.filamentId,
    '--process',
    profile.processId,
    ...profile.overrides.flatMap(([key, value]) => ['--set', `${key}=${value}`]),
  ];
}

/**
 * The resolved config of the bench profile: from the profile catalogue once it is built, else
 * the schema's defaults with the same overrides (said in `source`, so the report shows it).
 */
export async function resolveBenchConfig(root, dist, profile = BENCH_PROFILE) {
  const paths = distPaths(root, dist);
  if (!existsSync(paths.schema)) throw new Error(`${paths.schema} is missing: build first (npm run build)`);
  const schema = await import(pathToFileURL(paths.schema).href);
  const overrides = Object.fromEntries(profile.overrides.map(([key, value]) => [key, schema.parseSetting(key, value)]));
  if (existsSync(paths.catalogue)) {
    const { ProfileCatalogue } = await import(pathToFileURL(paths.catalogue).href);
    const catalogue = await ProfileCatalogue.bundled();
    const config = await catalogue.resolveConfig({
      printerId: profile.printerId,
      filamentIds: [profile.filamentId],
      processId: profile.processId,
      overrides,
    });
    if (typeof config?.layer_height !== 'number') throw new Error('ProfileCatalogue.resolveConfig did not return a resolved config');
    return { config, source: `profile catalogue (${profile.printerId}, ${profile.filamentId}, ${profile.processId})` };
  }
  return { config: { ...schema.defaultConfig(), ...overrides }, source: 'schema defaults (profile catalogue not built yet)' };
}
