/** A client's file name, made safe to use inside our folders and to show, and the output named after it. */
import { UNSAFE_CHARACTERS } from '../../common/unsafe-characters.js';
import type { PrintConfig } from '../profiles/schema.js';

const MAX_NAME_LENGTH = 120;

/** No path, no control, bidirectional or invisible characters, no characters Windows refuses; `fallback` when nothing is left. */
export function safeFileName(name: string, fallback: string): string {
  const base = name
    .replace(/^.*[\\/]/, '')
    .replace(UNSAFE_CHARACTERS, '_')
    .replace(/[<>:"|?*]/g, '_')
    .trim()
    .slice(0, MAX_NAME_LENGTH);
  return base === '' || /^\.+$/.test(base) ? fallback : base;
}

/** What a slice writes: Bambu printers take a `.gcode.3mf` package, every other printer plain G-code. */
export type OutputFormat = 'gcode' | 'gcode.3mf';

export function outputFormatFor(config: Pick<PrintConfig, 'gcode_flavor'>): OutputFormat {
  return config.gcode_flavor === 'bambu' ? 'gcode.3mf' : 'gcode';
}

/** The output's file name after the model's: `Benchy.stl` → `Benchy.gcode` (or `Benchy.gcode.3mf`). */
export function outputFileName(modelName: string, format: OutputFormat): string {
  const base = safeFileName(modelName, 'model').replace(/\.(stl|3mf)$/i, '') || 'model';
  return `${base}.${format}`;
}
