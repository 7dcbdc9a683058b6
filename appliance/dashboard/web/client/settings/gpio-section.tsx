/**
 * The box's GPIO (`GET /api/hardware/gpio`): whether there is a chip (or why not), each mapped pin
 * with its role, printer, level and — for a power relay — on/off and its phase, and the status
 * LED's pattern. Admins switch power relays (`POST /api/hardware/gpio/:pin`). The levels are read
 * again every few seconds while the page is open: inputs change without an event on the feed.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, reason, type Ok } from '../api/client';
import { can } from '../api/session';
import { t } from '../texts';
import { type Outcome, OutcomeLine, Section } from './section';

type Gpio = Ok<'GET /api/hardware/gpio'>;
type Pin = Gpio['pins'][number];

const g = t.settings.gpio;
const REFRESH_MS = 3000;

function stateText(pin: Pin): string {
  if (pin.relay !== null) return `${pin.relay.on ? g.on : g.off} (${g.phases[pin.relay.phase] ?? pin.relay.phase})`;
  if (pin.value === null) return g.unknown;
  return pin.value === 1 ? g.active : g.inactive;
}

export function GpioSection() {
  const gpio = useSignal<Gpio | null>(null);
  const outcome = useSignal<Outcome | null>(null);
  const busy = useSignal(false);

  const load = () =>
    api('GET /api/hardware/gpio').then(
      (answer) => {
        gpio.value = answer;
      },
      (err: unknown) => {
        outcome.value = { ok: false, text: reason(err, t.errors.network) };
      },
    );

  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);

  const switchRelay = async (pin: number, on: boolean) => {
    busy.value = true;
    try {
      await api('POST /api/hardware/gpio/{pin}', { path: { pin: String(pin) }, body: { on } });
      outcome.value = { ok: true, text: g.switched(pin, on) };
      await load();
    } catch (err) {
      outcome.value = { ok: false, text: reason(err, t.errors.network) };
    } finally {
      busy.value = false;
    }
  };

  const view = gpio.value;
  const admin = can('admin');
  return (
    <Section id="gpio" title={g.title} intro={g.intro}>
      <OutcomeLine outcome={outcome.value} />
      {view !== null && (
        <>
          {view.available && view.chip !== null ? <p>{g.chip(view.chip.label, view.chip.base)}</p> : null}
          {view.problem !== null && <p class="warn-text">{view.available ? view.problem : g.unavailable(view.problem)}</p>}
          {view.led !== null && view.led.pattern !== null && <p>{g.led(view.led.override ?? view.led.pattern)}</p>}
          {view.pins.length === 0 ? (
            <p class="empty">{g.none}</p>
          ) : (
            <div class="table-wrap">
              <table class="gpio-pins">
                <thead>
                  <tr>
                    <th scope="col">{g.pin}</th>
                    <th scope="col">{g.role}</th>
                    <th scope="col">{g.printer}</th>
                    <th scope="col">{g.state}</th>
                    {admin && <th scope="col">{g.actions}</th>}
                  </tr>
                </thead>
                <tbody>
                  {view.pins.map((pin) => (
                    <tr key={pin.pin} data-pin={pin.pin}>
                      <td>{pin.pin}</td>
                      <td>{g.roles[pin.role] ?? pin.role}</td>
                      <td>{pin.printer_name ?? pin.printer_id ?? (pin.role === 'emergency_stop' ? g.allPrinters : '')}</td>
                      <td>
                        {stateText(pin)}
                        {pin.problem !== null && <span class="warn-text"> {pin.problem}</span>}
                      </td>
                      {admin && (
                        <td>
                          {pin.relay !== null && (
                            <button
                              type="button"
                              disabled={busy.value || !view.available}
                              aria-label={pin.relay.on ? g.switchOff(pin.pin) : g.switchOn(pin.pin)}
                              onClick={() => void switchRelay(pin.pin, !pin.relay?.on)}
                            >
                              {pin.relay.on ? g.turnOff : g.turnOn}
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </Section>
  );
}
