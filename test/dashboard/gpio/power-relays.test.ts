/** The relay's cycle from the printer's reports, without a printer: end of print, cool-down, delay, a new print in between. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../../appliance/common/logger.js';
import type { PinConfig } from '../../../appliance/dashboard/gpio/config.js';
import { PowerRelays } from '../../../appliance/dashboard/gpio/power-relays.js';
import { fleetPattern } from '../../../appliance/dashboard/gpio/status-led.js';
import type { PrinterStatus } from '../../../appliance/dashboard/printers/status.js';
import { SimulatedChip } from '../../../appliance/hardware/gpio/simulated-chip.js';

const log = createLogger({ name: 'test', level: 'error', write: () => {} });
const config: PinConfig = { pin: 17, role: 'power_relay', printer_id: 'p', active_low: false, debounce_ms: null, off_below_c: 50, off_delay_s: 0 };

function status(state: PrinterStatus['state'], tool0: number): PrinterStatus {
  return {
    printer_id: 'p',
    state,
    online: true,
    temperatures: { tool0: { actual: tool0, target: 0 }, bed: { actual: 90, target: 0 } },
    job: null,
    fans: {},
    error: null,
    updated_at: new Date().toISOString(),
  };
}

test('on before a start; off only once the print ended and the hot end is below the limit; a new print keeps it on', async () => {
  const chip = new SimulatedChip();
  const relays = new PowerRelays(log);
  const line = await chip.exportOutput(17, { activeLow: false, initial: 0 });
  relays.add({ ...config, off_delay_s: 0 }, line, 0);
  await relays.beforeStart('p');
  assert.equal(chip.level(17), 1);
  relays.onStatus(status('printing', 210));
  relays.onStatus(status('finished', 180));
  assert.equal(relays.view('p')?.phase, 'cooling');
  await sleep(20);
  assert.equal(chip.level(17), 1, 'still hot: on');
  relays.onStatus(status('finished', 49));
  assert.equal(relays.view('p')?.phase, 'cooled');
  // The bed (90 °C) does not count; a new print within the delay cancels the switch-off.
  relays.onStatus(status('printing', 60));
  await sleep(20);
  assert.equal(chip.level(17), 1);
  assert.equal(relays.view('p')?.phase, 'printing');
  relays.onStatus(status('idle', 40));
  await sleep(20);
  assert.equal(chip.level(17), 0);
  assert.equal(relays.view('p')?.phase, 'idle');
  // Idle reports without a print switch nothing on or off.
  await relays.switchTo('p', true, 'admin');
  relays.onStatus(status('idle', 30));
  await sleep(20);
  assert.equal(chip.level(17), 1);
});

test('the LED pattern of the fleet: an error wins over printing, printing over idle', () => {
  assert.equal(fleetPattern([]), 'idle');
  assert.equal(fleetPattern([{ state: 'idle' }, { state: 'paused' }]), 'printing');
  assert.equal(fleetPattern([{ state: 'printing' }, { state: 'error' }]), 'error');
  assert.equal(fleetPattern([{ state: 'offline' }]), 'idle');
});
