/**
 * The generation jobs, newest first, live: state and progress (`model.job`), why a job failed,
 * what a finished model is (size, triangles, volume, and its notes, such as a temperature tower's
 * temperatures by height), its STL and 3MF, and Delete for the print role.
 */
import { useSignal } from '@preact/signals';
import { reason } from '../api/client';
import { t } from '../texts';
import { type Job, type ModelsStore, saveFile } from './store';
import { ProblemAlert } from '../problem-alert';

const m = t.models;

/** A record in words: `from z mm 0, temperature c 230`. */
function recordText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  if (Array.isArray(value)) return value.map(recordText).join(', ');
  return Object.entries(value)
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${recordText(v)}`)
    .join(', ');
}

/** A note's value in words: a list of records (a tower's temperatures, the retraction bands) one line per record. */
function NoteValue({ value }: { value: unknown }) {
  if (Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null)) {
    return (
      <ul class="note-list">
        {value.map((entry, i) => (
          <li key={i}>{recordText(entry)}</li>
        ))}
      </ul>
    );
  }
  return <span>{recordText(value)}</span>;
}

function Facts({ result }: { result: NonNullable<Job['result']> }) {
  const [x, y, z] = result.size_mm ?? [];
  const notes = Object.entries(result.notes ?? {});
  return (
    <dl class="job-facts">
      {x !== undefined && (
        <div>
          <dt>{m.size}</dt>
          <dd data-fact="size">{m.sizeValue(x, y, z)}</dd>
        </div>
      )}
      {result.triangles !== undefined && (
        <div>
          <dt>{m.triangles}</dt>
          <dd data-fact="triangles">{result.triangles.toLocaleString()}</dd>
        </div>
      )}
      {result.volume_mm3 !== undefined && (
        <div>
          <dt>{m.volume}</dt>
          <dd>{m.volumeValue(result.volume_mm3)}</dd>
        </div>
      )}
      {notes.map(([name, value]) => (
        <div key={name} class="job-note">
          <dt>{name.replace(/_/g, ' ')}</dt>
          <dd>
            <NoteValue value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function JobRow({ store, job, allowed }: { store: ModelsStore; job: Job; allowed: boolean }) {
  const problem = useSignal<string | null>(null);
  const title = `${store.titleOf(job.generator)} ${job.id.slice(0, 8)}`;
  const act = async (run: () => Promise<void>) => {
    problem.value = null;
    try {
      await run();
    } catch (err) {
      problem.value = m.actionFailed(reason(err, t.errors.network));
    }
  };
  const download = (format: 'stl' | '3mf') =>
    act(async () => {
      const { blob, name } = await store.jobFile(job.id, format);
      saveFile(blob, name);
    });
  const remove = () => {
    if (window.confirm(m.confirmDeleteJob)) void act(() => store.deleteJob(job.id));
  };
  const active = job.state === 'queued' || job.state === 'running';
  return (
    <li class="job-row" data-job={job.id} data-state={job.state}>
      <div class="job-head">
        <strong>{title}</strong>
        <span class={`job-state state-${job.state}`}>{m.states[job.state] ?? job.state}</span>
        <time dateTime={job.created_at}>{new Date(job.created_at).toLocaleString()}</time>
      </div>
      {active && <progress max={1} value={job.progress} aria-label={m.progressLabel(title)} />}
      {job.error !== null && <p class="error-text">{job.error}</p>}
      {job.result !== null && <Facts result={job.result} />}
      <div class="job-actions">
        {job.state === 'done' && (
          <>
            <button type="button" aria-label={m.downloadLabel('STL', title)} onClick={() => void download('stl')}>
              {m.downloadStl}
            </button>
            <button type="button" aria-label={m.downloadLabel('3MF', title)} onClick={() => void download('3mf')}>
              {m.download3mf}
            </button>
          </>
        )}
        {allowed && (
          <button type="button" class="danger" aria-label={m.deleteJobLabel(title)} onClick={remove}>
            {m.delete}
          </button>
        )}
      </div>
      <ProblemAlert message={problem.value} />
    </li>
  );
}

export function JobList({ store, allowed }: { store: ModelsStore; allowed: boolean }) {
  const jobs = store.jobs.value;
  return (
    <section class="models-section" aria-labelledby="models-jobs-title">
      <h2 id="models-jobs-title">{m.jobs}</h2>
      {jobs.length === 0 ? (
        <p class="hint">{m.noJobs}</p>
      ) : (
        <ul class="job-list">
          {jobs.map((job) => (
            <JobRow key={job.id} store={store} job={job} allowed={allowed} />
          ))}
        </ul>
      )}
    </section>
  );
}
