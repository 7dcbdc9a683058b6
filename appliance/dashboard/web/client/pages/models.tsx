/**
 * The models page: the box's generators, each a form built from its JSON Schema; the generation
 * jobs with live progress (`model.job`), their facts and files; and scenes of finished models,
 * placed, arranged and sliced with the slice page's profiles, result and send panel. Without the
 * print role the jobs and scenes are shown, with no controls (the server refuses them anyway).
 */
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { reason } from '../api/client';
import { canPrint } from '../api/session';
import { live } from '../app-live';
import { GeneratorCard } from '../models/generator-card';
import { JobList } from '../models/job-list';
import { SceneEditor } from '../models/scene-editor';
import { SceneList } from '../models/scene-list';
import { type Job, ModelsStore } from '../models/store';
import { type PrinterView, type ProfileSource, SliceStore } from '../slicing/store';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

const m = t.models;
const store = new ModelsStore();
/** The profiles and printers of a scene's slice, as the slice page has them. */
const slicing = new SliceStore();
const loadProblem = signal<string | null>(null);
const openScene = signal<string | null>(null);

export function ModelsPage() {
  const allowed = canPrint.value;
  useEffect(() => {
    const fail = (err: unknown) => {
      loadProblem.value = m.loadFailed(reason(err, t.errors.network));
    };
    loadProblem.value = null;
    const reload = () => void store.load().catch(fail);
    const offs = [live.on('model.job', (payload) => store.onJob(payload as Job)), live.onOpen(reload)];
    reload();
    if (allowed) {
      slicing.load().catch(fail);
      const reloadPrinters = () => void slicing.loadPrinters().catch(() => {});
      reloadPrinters();
      offs.push(
        live.onOpen(reloadPrinters),
        live.on('printer.status', (payload) => {
          const status = payload as PrinterView['status'];
          slicing.printers.value = slicing.printers.value.map((p) => (p.id === status.printer_id ? { ...p, status } : p));
        }),
      );
    }
    return () => {
      for (const off of offs) off();
    };
  }, [allowed]);

  const pickSource = (source: ProfileSource) => {
    slicing.loadProfiles(source).catch((err: unknown) => {
      loadProblem.value = t.slice.profilesFailed(reason(err, t.errors.network));
    });
  };

  const scene = store.scenes.value.find((s) => s.id === openScene.value) ?? null;
  return (
    <>
      <h1 tabIndex={-1}>{m.title}</h1>
      <p class="hint">{allowed ? m.intro : m.viewOnly}</p>
      <ProblemAlert message={loadProblem.value} />
      {allowed && (
        <section class="models-section" aria-labelledby="models-generators-title">
          <h2 id="models-generators-title">{m.generators}</h2>
          <div class="gen-grid">
            {store.generators.value.map((generator) => (
              <GeneratorCard key={generator.id} store={store} generator={generator} />
            ))}
          </div>
        </section>
      )}
      <div class="two-columns">
        <JobList store={store} allowed={allowed} />
        <section class="models-section" aria-labelledby="models-scenes-title">
          <h2 id="models-scenes-title">{m.scenes}</h2>
          <SceneList
            store={store}
            allowed={allowed}
            onOpen={(id) => {
              openScene.value = id;
            }}
          />
        </section>
      </div>
      {scene !== null && (
        <SceneEditor
          store={store}
          slicing={slicing}
          scene={scene}
          allowed={allowed}
          onSource={pickSource}
          onClose={() => {
            openScene.value = null;
          }}
        />
      )}
    </>
  );
}
