/**
 * The slice page: a model, three profiles, a slice with live progress (the fallback chain's event
 * stream), then the first layer, the estimate and the backend that sliced; then the print is
 * started on an idle printer or added to the queue. People without the print role see what would
 * slice but none of the controls (the server refuses them anyway).
 */
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { reason } from '../api/client';
import { canPrint } from '../api/session';
import { live } from '../app-live';
import { ModelDrop } from '../slicing/model-drop';
import { ProfilePicker } from '../slicing/profile-picker';
import { SendPanel } from '../slicing/send-panel';
import { problemText, ServiceLine, SliceProgress } from '../slicing/slice-status';
import { SliceResultView } from '../slicing/slice-result';
import { type PrinterView, type ProfileSource, SliceStore } from '../slicing/store';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

/** Kept while the app runs: a return to the page shows the last model and result. */
const store = new SliceStore();
const loadProblem = signal<string | null>(null);

export function SlicePage() {
  const allowed = canPrint.value;
  useEffect(() => {
    const fail = (err: unknown) => {
      loadProblem.value = t.slice.profilesFailed(reason(err, t.errors.network));
    };
    loadProblem.value = null;
    store.load().catch(fail);
    if (!allowed) return;
    const reloadPrinters = () => void store.loadPrinters().catch(() => {});
    const offs = [
      live.onOpen(reloadPrinters),
      live.on('printer.status', (payload) => {
        const status = payload as PrinterView['status'];
        store.printers.value = store.printers.value.map((p) => (p.id === status.printer_id ? { ...p, status } : p));
      }),
    ];
    reloadPrinters();
    return () => {
      for (const off of offs) off();
    };
  }, [allowed]);

  const pickSource = (source: ProfileSource) => {
    loadProblem.value = null;
    store.loadProfiles(source).catch((err: unknown) => {
      loadProblem.value = t.slice.profilesFailed(reason(err, t.errors.network));
    });
  };

  const phase = store.phase.value;
  const result = store.result.value;
  const problem = store.problem.value;
  return (
    <>
      <h1 tabIndex={-1}>{t.slice.title}</h1>
      <p class="hint">{allowed ? t.slice.intro : t.slice.viewOnly}</p>
      <ServiceLine store={store} />
      <ProblemAlert message={loadProblem.value} />
      {allowed && (
        <div class="two-columns">
          <div class="slice-inputs">
            <ModelDrop store={store} />
            <ProfilePicker store={store} onSource={pickSource} />
            <div class="slice-go">
              <button type="button" class="primary" disabled={!store.ready.value || phase === 'slicing'} onClick={() => void store.slice()}>
                {phase === 'slicing' ? t.slice.slicing : t.slice.slice}
              </button>
              {phase === 'slicing' && (
                <button type="button" onClick={() => store.cancel()}>
                  {t.slice.cancel}
                </button>
              )}
              <SliceProgress store={store} />
              {problem !== null && (
                <p class="error-text" role="alert">
                  {problemText(problem)}
                </p>
              )}
            </div>
          </div>
          <div class="slice-outputs">
            {result !== null && <SliceResultView result={result} preview={store.preview.value} />}
            {result !== null && <SendPanel store={store} result={result} />}
          </div>
        </div>
      )}
    </>
  );
}
