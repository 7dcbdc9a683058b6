/**
 * The simulator's console (its stdin), for demos by hand: pull and put back the cable, change
 * faults, switch auto-reports, power-cycle, look at the machine.
 */
import { FAULT_KINDS, formatFaults, parseFaults, type FaultKind } from './faults.js';
import type { VirtualMarlin } from './virtual-marlin.js';

export const CONSOLE_HELP = `Console commands:
  state                    temperatures, position, print and faults
  pull | plug              pull the USB cable out / put it back
  faults <spec>|none       set all fault rates, e.g. faults resend=0.05,drop=0.01
  inject <kind> [count]    the next <count> lines get the fault (${FAULT_KINDS.join(', ')})
  autoreport on|off        offer or withdraw the M155 / M27 S auto-reports
  power                    switch the printer off and on (it reboots)
  help                     this text`;

function describe(printer: VirtualMarlin): string {
  const s = printer.state();
  const temps = [...s.hotends.map((h, k) => `T${k} ${h.temperature.toFixed(1)}/${h.target}`), `bed ${s.bed.temperature.toFixed(1)}/${s.bed.target}`];
  const p = s.position;
  const print = s.sd.print
    ? `SD ${s.sd.print.file.shortName} ${s.sd.print.position}/${s.sd.print.file.size}${s.sd.print.printing ? '' : ' (paused)'}`
    : 'no SD print';
  return [
    `firmware ${s.firmware}, cable ${s.cable.plugged ? 'in' : 'out'}, host ${s.cable.hostConnected ? 'connected' : 'not connected'}`,
    `temperatures ${temps.join(', ')}`,
    `position X${p.X.toFixed(2)} Y${p.Y.toFixed(2)} Z${p.Z.toFixed(2)} E${p.E.toFixed(2)}, ` +
      `extruded ${s.extruded.map((e) => e.toFixed(1)).join('/')} mm`,
    `${print}, job timer ${s.jobTimer}, ${s.sd.files.length} file(s) on the card`,
    `faults ${formatFaults(s.faults)}`,
  ].join('\n');
}

/** Runs one console line and returns what to show (throws with a message for bad input). */
export async function runConsoleCommand(printer: VirtualMarlin, line: string): Promise<string> {
  const [command, ...args] = line.trim().split(/\s+/);
  switch (command) {
    case '':
      return '';
    case 'state':
      return describe(printer);
    case 'pull':
      await printer.disconnect();
      return 'cable pulled';
    case 'plug':
      await printer.reconnect();
      return `cable back in: ${printer.hostPath}`;
    case 'faults':
      printer.setFaults(parseFaults(args[0] === 'none' ? '' : args.join('')));
      return `faults ${formatFaults(printer.faultRates)}`;
    case 'inject': {
      const count = args[1] === undefined ? 1 : Number(args[1]);
      printer.injectFault(args[0] as FaultKind, count);
      return `the next ${count} get ${args[0]}`;
    }
    case 'autoreport':
      if (args[0] !== 'on' && args[0] !== 'off') throw new Error('autoreport on|off');
      printer.setAutoReport(args[0] === 'on');
      return `auto-reports ${args[0]}`;
    case 'power':
      printer.powerCycle();
      return 'power cycled';
    case 'help':
      return CONSOLE_HELP;
    default:
      throw new Error(`unknown console command "${command}" (try help)`);
  }
}
