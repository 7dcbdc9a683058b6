/**
 * Both peers' settings for one config and one job's custom G-code (peer-gcode.ts): the
 * PrusaSlicer INI text and the CuraEngine settings, with every caveat named after its peer. The
 * slicing benchmark prints these caveats for the config it slices with.
 */
import type { PrintConfig } from '../profiles/schema.js';
import type { PeerSettings } from './config-facts.js';
import { curaSettings } from './curaengine.js';
import type { PeerGcode } from './peer-gcode.js';
import { formatPrusaIni, prusaSettings } from './prusaslicer.js';

export interface PeerConfigs {
  prusaIni: string;
  prusaSettings: PeerSettings;
  curaSettings: PeerSettings;
  caveats: string[];
}

export function peerConfigs(config: PrintConfig, gcode: PeerGcode): PeerConfigs {
  const prusa = prusaSettings(config, gcode);
  const cura = curaSettings(config, gcode);
  return {
    prusaIni: formatPrusaIni(prusa.settings),
    prusaSettings: prusa.settings,
    curaSettings: cura.settings,
    caveats: [...prusa.caveats.map((c) => `PrusaSlicer: ${c}`), ...cura.caveats.map((c) => `CuraEngine: ${c}`)],
  };
}
