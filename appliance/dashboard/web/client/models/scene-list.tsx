/** The scenes: each with its object count and what is missing, to open; and a new scene made from finished models. */
import { useSignal } from '@preact/signals';
import { reason } from '../api/client';
import { t } from '../texts';
import type { ModelsStore } from './store';
import { ProblemAlert } from '../problem-alert';

const m = t.models;

function NewScene({ store, onCreated }: { store: ModelsStore; onCreated: (id: string) => void }) {
  const name = useSignal('');
  const chosen = useSignal<string[]>([]);
  const busy = useSignal(false);
  const problem = useSignal<string | null>(null);
  const done = store.doneJobs.value;

  const submit = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    problem.value = null;
    try {
      const scene = await store.createScene(name.value.trim(), chosen.value);
      name.value = '';
      chosen.value = [];
      onCreated(scene.id);
    } catch (err) {
      problem.value = m.refused(reason(err, t.errors.network));
    } finally {
      busy.value = false;
    }
  };

  return (
    <form class="form new-scene" onSubmit={submit}>
      <h3>{m.newScene}</h3>
      <div class="field">
        <label for="scene-new-name">{m.sceneName}</label>
        <input
          id="scene-new-name"
          type="text"
          required
          maxLength={100}
          value={name.value}
          onInput={(e) => {
            name.value = (e.currentTarget as HTMLInputElement).value;
          }}
        />
      </div>
      <fieldset class="scene-jobs">
        <legend>{m.sceneJobs}</legend>
        {done.length === 0 && <p class="hint">{m.noDoneJobs}</p>}
        {done.map((job) => (
          <label class="check" key={job.id}>
            <input
              type="checkbox"
              value={job.id}
              checked={chosen.value.includes(job.id)}
              onChange={(e) => {
                const on = (e.currentTarget as HTMLInputElement).checked;
                chosen.value = on ? [...chosen.value, job.id] : chosen.value.filter((id) => id !== job.id);
              }}
            />
            {`${store.titleOf(job.generator)} ${job.id.slice(0, 8)}`}
          </label>
        ))}
      </fieldset>
      <button type="submit" class="primary" disabled={busy.value || name.value.trim() === '' || chosen.value.length === 0}>
        {m.create}
      </button>
      <ProblemAlert message={problem.value} />
    </form>
  );
}

export function SceneList({ store, allowed, onOpen }: { store: ModelsStore; allowed: boolean; onOpen: (id: string) => void }) {
  const scenes = store.scenes.value;
  return (
    <div class="scene-list">
      {scenes.length === 0 ? (
        <p class="hint">{m.noScenes}</p>
      ) : (
        <ul class="scenes">
          {scenes.map((scene) => (
            <li key={scene.id} data-scene={scene.id}>
              <span>
                <strong>{scene.name}</strong> <span class="hint">{m.sceneSummary(scene.objects.length, scene.missing)}</span>
              </span>
              <button type="button" aria-label={m.openLabel(scene.name)} onClick={() => onOpen(scene.id)}>
                {m.open}
              </button>
            </li>
          ))}
        </ul>
      )}
      {allowed && <NewScene store={store} onCreated={onOpen} />}
    </div>
  );
}
