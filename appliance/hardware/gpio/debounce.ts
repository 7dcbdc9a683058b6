/**
 * Debouncing an input: a contact bounces for a few milliseconds when it closes or opens, and a
 * filament sensor's lever flickers as the last of the strand slides past. A level counts only
 * once it has stayed for `ms`; each stable change is reported once, in order.
 */
import type { GpioLine, Level } from './chip.js';

export interface DebouncedInput {
  /** The last stable level. */
  readonly level: Level;
  stop(): void;
}

export async function debounceInput(line: GpioLine, ms: number, onChange: (level: Level) => void): Promise<DebouncedInput> {
  let stable = await line.read();
  let timer: NodeJS.Timeout | null = null;
  const settle = () => {
    timer = null;
    void line.read().then((level) => {
      if (level === stable) return;
      stable = level;
      onChange(level);
    });
  };
  const unwatch = line.watch(() => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(settle, ms);
  });
  return {
    get level() {
      return stable;
    },
    stop() {
      unwatch();
      if (timer) clearTimeout(timer);
    },
  };
}
