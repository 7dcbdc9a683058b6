/**
 * The printers' power switches, as far as the box has any (a relay per printer on GPIO: gpio/).
 * Whatever starts a print (the queue's dispatch, slice-and-send) asks `beforeStart` first, so a
 * printer whose supply is switched off gets its power before its file, as OctoPrint's PSU Control
 * does. Without switches this does nothing. Switches are added by services.ts, which wires who
 * owns them.
 */

export interface PowerSwitch {
  /** Resolves once the printer's supply is on (at once when it has no switch or it is on). */
  beforeStart(printerId: string): Promise<void>;
}

export class PrinterPower implements PowerSwitch {
  private readonly switches = new Set<PowerSwitch>();

  /** Adds a switch; returns the function that removes it. */
  add(power: PowerSwitch): () => void {
    this.switches.add(power);
    return () => this.switches.delete(power);
  }

  async beforeStart(printerId: string): Promise<void> {
    for (const power of this.switches) await power.beforeStart(printerId);
  }
}
