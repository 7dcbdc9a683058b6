// Reads what each slicer reports about a sliced part: layer count, estimated print time and
// filament (mm and g). PrusaSlicer writes a footer; CuraEngine run from the command line writes
// placeholder header values into the G-code (";TIME:6666") and prints the real ones on stderr
// with -v; our engine writes PrusaSlicer's footer and Cura's header keys.

/** Seconds of a PrusaSlicer duration such as "1d 2h 3m 4s" or "22m 21s". */
export function parseDuration(text) {
  const units = { d: 86400, h: 3600, m: 60, s: 1 };
  let seconds = 0;
  let matched = false;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*([dhms])/g)) {
    seconds += Number(m[1]) * units[m[2]];
    matched = true;
  }
  return matched ? seconds : undefined;
}

function lastNumber(text, pattern) {
  let value;
  for (const m of text.matchAll(pattern)) value = Number(m[1]);
  return value;
}

function countLines(text, pattern) {
  return text.match(pattern)?.length ?? 0;
}

/**
 * The report of PrusaSlicer and of our engine: the comments PrusaSlicer writes in its footer and
 * OrcaSlicer/Cura in their headers, whichever exist. PrusaSlicer writes no layer count, so its
 * layers are counted from ;LAYER_CHANGE.
 */
export function parseGcodeSummary(gcode) {
  const timeText = /^; estimated printing time \(normal mode\) = (.+)$/m.exec(gcode)?.[1];
  const layerChanges = countLines(gcode, /^;LAYER_CHANGE\s*$/gm);
  const layers = lastNumber(gcode, /^;LAYER_COUNT:\s*(\d+)/gm)
    ?? lastNumber(gcode, /^; total layers count = (\d+)/gm)
    ?? (layerChanges > 0 ? layerChanges : undefined);
  const filamentM = lastNumber(gcode, /^;Filament used:\s*([\d.]+)m\s*$/gm);
  const filamentMm = lastNumber(gcode, /^; filament used \[mm\] = ([\d.]+)/gm) ?? (filamentM === undefined ? undefined : filamentM * 1000);
  return {
    layers,
    timeS: timeText === undefined ? lastNumber(gcode, /^;TIME:\s*([\d.]+)/gm) : parseDuration(timeText),
    filamentMm,
    filamentG: lastNumber(gcode, /^; (?:total )?filament used \[g\] = ([\d.]+)/gm),
  };
}

/**
 * CuraEngine's report: layers counted from the G-code (its ;LAYER_COUNT also counts empty layers
 * above a pointed top, which it never writes), time and extruded volume from its -v stderr (the
 * G-code header holds placeholders when run from the command line). Cura has no filament
 * density, so grams and length come from the volume with our filament's density and diameter.
 */
export function parseCuraOutput(gcode, log, { filamentDiameter, filamentDensity }) {
  const volumeMm3 = lastNumber(log, /^Filament \(mm\^3\):\s*([\d.]+)/gm);
  const area = Math.PI * (filamentDiameter / 2) ** 2;
  return {
    layers: countLines(gcode, /^;LAYER:\d+\s*$/gm) || lastNumber(gcode, /^;LAYER_COUNT:\s*(\d+)/gm),
    timeS: lastNumber(log, /^Print time \(s\):\s*([\d.]+)/gm) ?? lastNumber(gcode, /^;TIME_ELAPSED:([\d.]+)/gm),
    filamentMm: volumeMm3 === undefined ? undefined : volumeMm3 / area,
    filamentG: volumeMm3 === undefined ? undefined : (volumeMm3 / 1000) * filamentDensity,
  };
}
