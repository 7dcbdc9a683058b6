/**
 * Where a printer is fed a filament from: a Marlin tool (T0, T1…), a Bambu AMS tray (unit 0..3,
 * tray 0..3; the global tray id Bambu uses in ams_mapping is unit × 4 + tray) or the external spool
 * holder. Spools are loaded into slots, queue jobs ask for material in slots, history records use
 * per slot: one shape for all three.
 */
export type FilamentSlot = { kind: 'tool'; tool: number } | { kind: 'ams'; unit: number; tray: number } | { kind: 'external' };

/** A short stable text for a slot, as people read it and as keys use it: `T0`, `AMS1-T3`, `external`. */
export function slotLabel(slot: FilamentSlot): string {
  if (slot.kind === 'tool') return `T${slot.tool}`;
  if (slot.kind === 'ams') return `AMS${slot.unit + 1}-T${slot.tray + 1}`;
  return 'external';
}

export function sameSlot(a: FilamentSlot, b: FilamentSlot): boolean {
  return slotLabel(a) === slotLabel(b);
}
