import assert from 'node:assert/strict';
import { basename, dirname } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../../../appliance/slicer/profiles/schema.js';
import { loadScript } from '../../fixtures/load-script.js';

interface PeerModules {
  configFacts(config: unknown): { nozzle: number };
  peerConfigs(config: unknown, gcode: unknown): { prusaIni: string };
  peerGcode(config: unknown, job: unknown): { start: string };
  peerJob(config: unknown, bounds: unknown, base: string): unknown;
}
interface PeerModulesScript {
  loadPeerModules(root: string, dist: string): Promise<PeerModules>;
}

const { loadPeerModules } = await loadScript<PeerModulesScript>('scripts/bench/peer-modules.mjs');
/** This test runs compiled, from `<root>/<build folder>/test/scripts/bench/`. */
const build = dirname(dirname(dirname(dirname(fileURLToPath(import.meta.url)))));

describe('loadPeerModules', () => {
  it('loads the peer mappings from the build the bench is given', async () => {
    const peers = await loadPeerModules(dirname(build), basename(build));
    const config = defaultConfig();
    assert.equal(peers.configFacts(config).nozzle, 0.4);
    const gcode = peers.peerGcode(config, peers.peerJob(config, { min: [0, 0, 0], max: [10, 10, 10] }, 'part'));
    assert.match(peers.peerConfigs(config, gcode).prusaIni, /^nozzle_diameter = 0\.4$/m);
  });

  it('needs a build that holds them', async () => {
    await assert.rejects(loadPeerModules(process.cwd(), 'no-such-build'), /build first/);
  });
});
