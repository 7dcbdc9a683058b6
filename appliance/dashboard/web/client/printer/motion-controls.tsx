/**
 * Home and jog, for printers that offer them: a step size (kept while the page is open) and a
 * button per axis and direction. Motion is refused while a print runs, so the buttons are off then.
 */
import { useSignal } from '@preact/signals';
import { api } from '../api/client';
import { t } from '../texts';
import { useRunner } from './runner';
import type { PrinterPageStore } from './store';
import { ProblemAlert } from '../problem-alert';

const STEPS = [0.1, 1, 10, 100];
const AXES = ['x', 'y', 'z'] as const;
type Axis = (typeof AXES)[number];

export function isBusyPrinting(state: string): boolean {
  return state === 'printing' || state === 'paused' || state === 'preparing';
}

export function MotionControls({ store }: { store: PrinterPageStore }) {
  const step = useSignal(10);
  const runner = useRunner();
  const id = store.id;
  const home = store.offers('home');
  const jog = store.offers('jog');
  if (!home && !jog) return null;
  const off = runner.busy.value || isBusyPrinting(store.entry.status.value.state);
  const homeAxes = (axes?: Axis[]) =>
    runner.run(() => api('POST /api/printers/{id}/actions/home', { path: { id }, body: axes === undefined ? {} : { axes } }));
  const move = (axis: Axis, sign: 1 | -1) =>
    runner.run(() => api('POST /api/printers/{id}/actions/jog', { path: { id }, body: { [axis]: sign * step.value } }));
  return (
    <section class="panel" aria-labelledby="motion-title">
      <h2 id="motion-title">{t.printerPage.motion}</h2>
      {home && (
        <div class="button-row">
          <button type="button" disabled={off} onClick={() => void homeAxes()}>
            {t.printerPage.homeAll}
          </button>
          {AXES.map((axis) => (
            <button key={axis} type="button" disabled={off} onClick={() => void homeAxes([axis])}>
              {t.printerPage.homeAxis(axis.toUpperCase())}
            </button>
          ))}
        </div>
      )}
      {jog && (
        <>
          <fieldset class="steps">
            <legend>{t.printerPage.step}</legend>
            {STEPS.map((value) => (
              <label key={value} class="step">
                <input type="radio" name="jog-step" checked={step.value === value} onChange={() => (step.value = value)} />
                {t.printerPage.mm(value)}
              </label>
            ))}
          </fieldset>
          <div class="jog-grid">
            {AXES.map((axis) =>
              ([-1, 1] as const).map((sign) => (
                <button key={`${axis}${sign}`} type="button" disabled={off} onClick={() => void move(axis, sign)}>
                  {t.printerPage.jog(axis.toUpperCase(), sign, step.value)}
                </button>
              )),
            )}
          </div>
        </>
      )}
      <ProblemAlert message={runner.failure.value} />
    </section>
  );
}
