/**
 * Heater targets, fans, speed, light and filament load/unload, each shown only when the printer's
 * driver offers the action (`capabilities.actions`). Values go as typed; the server checks the
 * ranges of this printer (a nozzle above 300 °C on a Bambu) and says why it refuses.
 */
import { useSignal } from '@preact/signals';
import { api } from '../api/client';
import { heaterLabel, heaterOrder } from '../fleet/format';
import { t } from '../texts';
import { isBusyPrinting } from './motion-controls';
import { useRunner, type Runner } from './runner';
import type { PrinterPageStore } from './store';
import { ProblemAlert } from '../problem-alert';

const FANS = ['part', 'aux', 'chamber'] as const;
type Fan = (typeof FANS)[number];
const SPEED_LEVELS = ['silent', 'standard', 'sport', 'ludicrous'] as const;
type SpeedLevel = (typeof SPEED_LEVELS)[number];

/** A number with its label and a button, sent on the button or Enter. */
function NumberSetter(props: {
  id: string;
  label: string;
  min: number;
  max: number;
  initial: number;
  runner: Runner;
  send: (n: number) => Promise<unknown>;
}) {
  const value = useSignal(String(props.initial));
  const submit = (event: Event) => {
    event.preventDefault();
    void props.runner.run(() => props.send(Number(value.value)));
  };
  return (
    <form class="setter" onSubmit={submit}>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        inputMode="numeric"
        min={props.min}
        max={props.max}
        required
        value={value.value}
        onInput={(e) => (value.value = (e.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit" disabled={props.runner.busy.value}>
        {t.printerPage.set}
      </button>
    </form>
  );
}

function Heaters({ store, runner }: { store: PrinterPageStore; runner: Runner }) {
  const id = store.id;
  const heaters = Object.entries(store.entry.status.value.temperatures).sort(([a], [b]) => heaterOrder(a) - heaterOrder(b));
  return (
    <>
      {heaters.map(([heater, { target }]) => (
        <NumberSetter
          key={heater}
          id={`target-${heater}`}
          label={t.printerPage.targetOf(heaterLabel(heater))}
          min={0}
          max={500}
          initial={target}
          runner={runner}
          send={(n) => api('POST /api/printers/{id}/actions/temperature', { path: { id }, body: { heater, target: n } })}
        />
      ))}
    </>
  );
}

function Fans({ store, runner }: { store: PrinterPageStore; runner: Runner }) {
  const id = store.id;
  const reported = Object.keys(store.entry.status.value.fans).filter((f): f is Fan => (FANS as readonly string[]).includes(f));
  const fans = reported.length > 0 ? reported : (['part'] as Fan[]);
  return (
    <>
      {fans.map((fan) => (
        <NumberSetter
          key={fan}
          id={`fan-${fan}`}
          label={t.printerPage.fan(fan)}
          min={0}
          max={100}
          initial={Math.round(store.entry.status.value.fans[fan] ?? 0)}
          runner={runner}
          send={(percent) => api('POST /api/printers/{id}/actions/fan', { path: { id }, body: { fan, percent } })}
        />
      ))}
    </>
  );
}

function Speed({ store, runner }: { store: PrinterPageStore; runner: Runner }) {
  const id = store.id;
  if (!store.entry.view.value.type.startsWith('bambu')) {
    return (
      <NumberSetter
        id="speed-percent"
        label={t.printerPage.speedPercent}
        min={10}
        max={500}
        initial={100}
        runner={runner}
        send={(percent) => api('POST /api/printers/{id}/actions/speed', { path: { id }, body: { percent } })}
      />
    );
  }
  const send = (level: SpeedLevel) => runner.run(() => api('POST /api/printers/{id}/actions/speed', { path: { id }, body: { level } }));
  return (
    <div class="setter">
      <label for="speed-level">{t.printerPage.speedLevel}</label>
      <select id="speed-level" disabled={runner.busy.value} onChange={(e) => void send((e.currentTarget as HTMLSelectElement).value as SpeedLevel)}>
        <option value="">{t.printerPage.choose}</option>
        {SPEED_LEVELS.map((level) => (
          <option key={level} value={level}>
            {t.printerPage.speedLevels[level]}
          </option>
        ))}
      </select>
    </div>
  );
}

function Light({ store, runner }: { store: PrinterPageStore; runner: Runner }) {
  const id = store.id;
  const send = (on: boolean) => runner.run(() => api('POST /api/printers/{id}/actions/light', { path: { id }, body: { on } }));
  return (
    <fieldset class="button-row plain">
      <legend class="row-label">{t.printerPage.light}</legend>
      <button type="button" disabled={runner.busy.value} onClick={() => void send(true)}>
        {t.printerPage.on}
      </button>
      <button type="button" disabled={runner.busy.value} onClick={() => void send(false)}>
        {t.printerPage.off}
      </button>
    </fieldset>
  );
}

/** The select's value as the API's `tray`: a global tray id, `external`, or none chosen. */
function trayValue(value: string): number | 'external' | undefined {
  if (value === '') return undefined;
  return value === 'external' ? 'external' : Number(value);
}

function Filament({ store, runner }: { store: PrinterPageStore; runner: Runner }) {
  const id = store.id;
  const tray = useSignal('');
  const ams = store.entry.ams.value;
  const needsTray = store.entry.view.value.type.startsWith('bambu');
  const trays: Array<[string, string]> = [];
  for (const unit of ams?.units ?? []) {
    for (const item of unit.trays) {
      if (item.present)
        trays.push([String(unit.id * 4 + item.slot), `${t.printer.ams(unit.id)} · ${t.printer.tray(item.slot, item.material ?? '?', '')}`]);
    }
  }
  if (ams?.external?.present) trays.push(['external', t.printer.external]);
  const off = runner.busy.value || isBusyPrinting(store.entry.status.value.state);
  const chosen = trayValue(tray.value);
  const load = () =>
    runner.run(() => api('POST /api/printers/{id}/actions/load_filament', { path: { id }, body: chosen === undefined ? {} : { tray: chosen } }));
  const unload = () => runner.run(() => api('POST /api/printers/{id}/actions/unload_filament', { path: { id }, body: {} }));
  return (
    <div class="filament">
      {needsTray && store.offers('load_filament') && (
        <div class="setter">
          <label for="load-tray">{t.printerPage.loadFrom}</label>
          <select id="load-tray" value={tray.value} onChange={(e) => (tray.value = (e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{t.printerPage.choose}</option>
            {trays.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="button-row">
        {store.offers('load_filament') && (
          <button type="button" disabled={off || (needsTray && chosen === undefined)} onClick={() => void load()}>
            {t.printerPage.load}
          </button>
        )}
        {store.offers('unload_filament') && (
          <button type="button" disabled={off} onClick={() => void unload()}>
            {t.printerPage.unload}
          </button>
        )}
      </div>
    </div>
  );
}

export function MachineControls({ store }: { store: PrinterPageStore }) {
  const runner = useRunner();
  const parts = [
    store.offers('temperature') && <Heaters key="heaters" store={store} runner={runner} />,
    store.offers('fan') && <Fans key="fans" store={store} runner={runner} />,
    store.offers('speed') && <Speed key="speed" store={store} runner={runner} />,
    store.offers('light') && <Light key="light" store={store} runner={runner} />,
    (store.offers('load_filament') || store.offers('unload_filament')) && <Filament key="filament" store={store} runner={runner} />,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="machine-title">
      <h2 id="machine-title">{t.printerPage.machine}</h2>
      {parts}
      <ProblemAlert message={runner.failure.value} />
    </section>
  );
}
