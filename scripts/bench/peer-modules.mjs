// The peer mappings (our config → PrusaSlicer INI and CuraEngine settings), the custom G-code
// rendered for the peers, and the readers of their reports live in appliance/slicer/peers/, where
// the dashboard's desktop-slicer bridge uses them too; the bench runs them from the build.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULES = ['config-facts', 'peer-configs', 'curaengine', 'peer-gcode', 'output-report'];

/**
 * `configFacts`, `first`, `peerConfigs`, `curaCommandArgs`, `peerGcode`, `peerJob`,
 * `parseGcodeSummary` and `parseCuraOutput` of the compiled peers modules under `dist`.
 */
export async function loadPeerModules(root, dist) {
  const dir = join(root, dist, 'appliance', 'slicer', 'peers');
  const files = MODULES.map((name) => join(dir, `${name}.js`));
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build first (npm run build)`);
  }
  const [facts, configs, cura, gcode, report] = await Promise.all(files.map((file) => import(pathToFileURL(file).href)));
  return {
    configFacts: facts.configFacts,
    first: facts.first,
    peerConfigs: configs.peerConfigs,
    curaCommandArgs: cura.curaCommandArgs,
    peerGcode: gcode.peerGcode,
    peerJob: gcode.peerJob,
    parseGcodeSummary: report.parseGcodeSummary,
    parseCuraOutput: report.parseCuraOutput,
  };
}
