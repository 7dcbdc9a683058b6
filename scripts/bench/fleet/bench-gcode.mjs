// The print every simulated Bambu printer of the fleet bench runs: short layers (half a report
// interval of printer time each), so each report of a printer carries a new layer number, which is
// how the bench recognises that report in the dashboard's events. Heaters and the part fan are
// switched on without waiting, so temperatures climb during the first minute as on a real start.

/** G-code of `layers` layers of `layerSeconds` each (a 10 mm line at the matching feed rate). */
export function benchGcode({ layers = 7200, layerSeconds = 0.5 } = {}) {
  const feed = Math.round((10 / layerSeconds) * 60);
  const lines = [
    '; bench plate of scripts/bench-fleet.mjs',
    `; total layer number: ${layers}`,
    'M104 S220',
    'M140 S60',
    'M106 S160',
    'G90',
    'M83',
    `G1 X10 Y10 F${feed}`,
  ];
  for (let n = 1; n <= layers; n++) lines.push(`M73 L${n}`, `G1 X${n % 2 === 1 ? 20 : 10} Y10 E0.4 F${feed}`);
  lines.push('M104 S0', 'M140 S0', 'M107');
  return `${lines.join('\n')}\n`;
}
