// Maps one resolved Printyard config (canonical OrcaSlicer keys) onto the two reference slicers,
// so that both slice on the same settings as our engine: a PrusaSlicer 2.5 INI for `--load`
// (prusa-config.mjs) and the `-s key=value` settings of CuraEngine 4.13 (cura-config.mjs). Each
// side also returns `caveats`: settings of this particular config that the peer cannot match.
import { curaCommandArgs, curaSettings } from './cura-config.mjs';
import { formatPrusaIni, prusaSettings } from './prusa-config.mjs';

export { curaCommandArgs, curaSettings, formatPrusaIni, prusaSettings };

/**
 * Both peers' settings for one config and one job's custom G-code (peer-gcode.mjs): the
 * PrusaSlicer INI text and the CuraEngine settings.
 */
export function peerConfigs(config, gcode) {
  const prusa = prusaSettings(config, gcode);
  const cura = curaSettings(config, gcode);
  return {
    prusaIni: formatPrusaIni(prusa.settings),
    prusaSettings: prusa.settings,
    curaSettings: cura.settings,
    caveats: [...prusa.caveats.map((c) => `PrusaSlicer: ${c}`), ...cura.caveats.map((c) => `CuraEngine: ${c}`)],
  };
}
