/** The pin map's checks: every message names the entry, the pin and the role; defaults are filled in. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppError } from '../../../appliance/common/errors.js';
import { checkGpioConfig } from '../../../appliance/dashboard/gpio/config.js';

const printers = new Set(['p1', 'p2']);
const exists = (id: string) => printers.has(id);

function problems(input: unknown): Array<{ path: string; message: string }> {
  try {
    checkGpioConfig(input, exists, 'body/');
  } catch (err) {
    assert.ok(isAppError(err) && err.status === 400, String(err));
    return err.details as Array<{ path: string; message: string }>;
  }
  assert.fail('the pin map was accepted');
}

test('a good map gets its defaults', () => {
  const config = checkGpioConfig(
    {
      pins: [
        { pin: 17, role: 'power_relay', printer_id: 'p1' },
        { pin: 27, role: 'filament_runout', printer_id: 'p1', active_low: true },
        { pin: 23, role: 'emergency_stop' },
        { pin: 25, role: 'status_led' },
      ],
    },
    exists,
    'body/',
  );
  assert.deepEqual(config.pins[0], {
    pin: 17,
    role: 'power_relay',
    printer_id: 'p1',
    active_low: false,
    debounce_ms: null,
    off_below_c: 50,
    off_delay_s: 120,
  });
  assert.equal(config.pins[1].debounce_ms, 50);
  assert.equal(config.pins[2].printer_id, null);
});

test('each bad entry is named by its place, pin and role', () => {
  const found = problems({
    pins: [
      { pin: 40, role: 'door', printer_id: 'p1' },
      { pin: 5, role: 'door', printer_id: 'nope' },
      { pin: 6, role: 'relay', printer_id: 'p1' },
      { pin: 7, role: 'power_relay' },
      { pin: 8, role: 'door', printer_id: 'p1', off_below_c: 40, debounce_ms: -1 },
    ],
  });
  const text = found.map((p) => `${p.path} ${p.message}`);
  assert.deepEqual(text, [
    'body/pins/0/pin (GPIO 40, door): pin must be a BCM GPIO number of the 40-pin header, 0–27; got 40',
    'body/pins/1/printer_id (GPIO 5, door): printer_id "nope" is not a printer of this dashboard',
    'body/pins/2/role (GPIO 6, relay): role must be one of ' +
      'power_relay, status_led, filament_runout, door, emergency_stop, plate_cleared; got "relay"',
    'body/pins/3/printer_id (GPIO 7, power_relay): a power_relay pin needs the printer_id of its printer',
    'body/pins/4/off_below_c (GPIO 8, door): off_below_c is not a key of a door pin (its keys: pin, role, active_low, printer_id, debounce_ms)',
    'body/pins/4/debounce_ms (GPIO 8, door): debounce_ms must be an integer from 0 to 10000',
  ]);
});

test('a pin given twice, two relays for one printer, two status LEDs', () => {
  const found = problems({
    pins: [
      { pin: 17, role: 'power_relay', printer_id: 'p1' },
      { pin: 17, role: 'door', printer_id: 'p2' },
      { pin: 18, role: 'power_relay', printer_id: 'p1' },
      { pin: 24, role: 'status_led' },
      { pin: 25, role: 'status_led' },
    ],
  });
  assert.deepEqual(
    found.map((p) => `${p.path} ${p.message}`),
    [
      'body/pins/1 (GPIO 17, door): GPIO 17 is given twice: pins/0 (power_relay) has it already',
      'body/pins/2 (GPIO 18, power_relay): printer p1 has a power relay already: GPIO 17',
      'body/pins/4 (GPIO 25, status_led): there is a status LED already: GPIO 24',
    ],
  );
});

test('the shape itself', () => {
  assert.match(problems([])[0].message, /expected \{"pins"/);
  assert.match(problems({ pins: [], extra: 1 })[0].path, /body\/extra/);
  assert.match(problems({ pins: ['x'] })[0].message, /must be an object/);
});
