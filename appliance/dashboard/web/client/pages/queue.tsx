/**
 * The queue page: the plates waiting for a "Plate cleared", the jobs in queue order (drag or move
 * buttons to reorder, hold / release / requeue, cancel, delete, priority), the queue-wide pause
 * (pause-panel.tsx), "Dispatch now" and a form to add a print-ready file. Live over `queue.update`, `printer.plate` and `printer.status`;
 * the whole state is reloaded whenever the live feed (re)connects.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { api, reason } from '../api/client';
import { canPrint } from '../api/session';
import { live } from '../app-live';
import { AddJob } from '../queue/add-job';
import { JobRow, type JobActions } from '../queue/job-row';
import { PausePanel } from '../queue/pause-panel';
import { type Job, type Plate, type Printer, QueueStore, type QueueUpdate } from '../queue/store';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

const q = t.queue;

function Plates({ store, onClear }: { store: QueueStore; onClear: (printer: Printer) => void }) {
  const waiting = store.platesToClear();
  return (
    <section class="panel" aria-labelledby="plates-heading">
      <h2 id="plates-heading">{q.platesHeading}</h2>
      {waiting.length === 0 ? (
        <p class="empty">{q.platesEmpty}</p>
      ) : (
        <ul class="plates">
          {waiting.map(({ printer, plate }) => (
            <li key={printer.id} class="plate" data-printer={printer.id}>
              <span class="plate-name">{printer.name}</span>
              <span class="muted">{q.plateState[plate.state] ?? plate.state}</span>
              {canPrint.value && (
                <button type="button" class="primary" aria-label={q.plateClearedOf(printer.name)} onClick={() => onClear(printer)}>
                  {q.plateCleared}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function QueuePage() {
  const store = useMemo(() => new QueueStore(), []);
  const problem = useSignal<string | null>(null);
  const notice = useSignal<string | null>(null);
  const dragged = useSignal<string | null>(null);

  const reload = () =>
    store.load().then(
      () => {
        problem.value = null;
      },
      (err: unknown) => {
        problem.value = q.loadFailed(reason(err, t.errors.network));
      },
    );

  useEffect(() => {
    let timer: number | undefined;
    const reloadSoon = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void reload(), 200);
    };
    const offs = [
      live.onOpen(() => void reload()),
      live.on('queue.update', (p) => {
        if (!store.apply(p as QueueUpdate)) reloadSoon();
      }),
      live.on('printer.plate', (p) => store.applyPlate(p as Plate)),
      live.on('printer.status', (p) => store.applyPrinter(p as Printer['status'])),
    ];
    void reload();
    return () => {
      window.clearTimeout(timer);
      for (const off of offs) off();
    };
  }, []);

  /** Runs a change; its answer and the live events bring the new state, a refusal is shown. */
  const run = async (work: () => Promise<unknown>, after?: string) => {
    notice.value = null;
    try {
      await work();
      if (after !== undefined) notice.value = after;
      await reload();
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    }
  };

  const actions: JobActions = {
    move: (job, position) => void run(() => api('PUT /api/queue/{id}', { path: { id: job.id }, body: { position: Math.max(1, position) } })),
    setState: (job, state) => void run(() => api('PUT /api/queue/{id}', { path: { id: job.id }, body: { state } })),
    setPriority: (job, priority) => void run(() => api('PUT /api/queue/{id}', { path: { id: job.id }, body: { priority } })),
    remove: (job) => void run(() => api('DELETE /api/queue/{id}', { path: { id: job.id } })),
  };

  const dragHandlers = (job: Job) => ({
    onDragStart: (e: DragEvent) => {
      dragged.value = job.id;
      e.dataTransfer?.setData('text/plain', job.id);
      if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
    },
    onDragOver: (e: DragEvent) => {
      if (dragged.value !== null && dragged.value !== job.id) e.preventDefault();
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      const moving = store.jobs.value.find((j) => j.id === (dragged.value ?? e.dataTransfer?.getData('text/plain')));
      dragged.value = null;
      if (moving !== undefined && moving.id !== job.id) actions.move(moving, job.position);
    },
    onDragEnd: () => {
      dragged.value = null;
    },
  });

  const jobs = store.jobs.value;
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>{q.title}</h1>
        {canPrint.value && (
          <button
            type="button"
            class="primary"
            onClick={() =>
              void run(async () => {
                const { dispatched } = await api('POST /api/queue/dispatch');
                notice.value = q.dispatched(dispatched.length);
              })
            }
          >
            {q.dispatchNow}
          </button>
        )}
      </div>
      <p class="notice" role="status">
        {notice.value ?? ''}
      </p>
      <ProblemAlert message={problem.value} />
      {!store.loaded.value && problem.value === null && <p>{t.loading}</p>}
      {store.loaded.value && <PausePanel pause={store.pause.value} run={run} />}
      {store.loaded.value && (
        <div class="farm-columns">
          <div>
            <Plates store={store} onClear={(printer) => void run(() => api('POST /api/printers/{id}/plate-cleared', { path: { id: printer.id } }))} />
            <section class="panel" aria-labelledby="jobs-heading">
              <h2 id="jobs-heading">{q.jobsHeading}</h2>
              {jobs.length === 0 ? (
                <p class="empty">{q.empty}</p>
              ) : (
                <>
                  {canPrint.value && <p class="hint">{q.jobsHint}</p>}
                  <ol class="jobs">
                    {jobs.map((job, index) => (
                      <JobRow
                        key={job.id}
                        job={job}
                        index={index}
                        count={jobs.length}
                        printerName={(id) => store.printerName(id)}
                        actions={actions}
                        dragHandlers={dragHandlers(job)}
                      />
                    ))}
                  </ol>
                </>
              )}
            </section>
          </div>
          {canPrint.value && <AddJob printers={store.printers.value} onAdded={(name) => void run(async () => {}, q.add.added(name))} />}
        </div>
      )}
    </>
  );
}
