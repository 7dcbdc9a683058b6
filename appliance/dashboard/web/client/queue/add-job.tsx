/**
 * Adds a print-ready file to the queue (POST /api/queue, multipart): name, copies, priority, a
 * printer to pin it to, the material and colour of its first filament (else the file's own), held.
 */
import { useSignal } from '@preact/signals';
import { api, reason } from '../api/client';
import { t } from '../texts';
import type { Printer } from './store';
import { Options } from '../options';

const a = t.queue.add;

export function AddJob({ printers, onAdded }: { printers: Printer[]; onAdded: (name: string) => void }) {
  const problem = useSignal<string | null>(null);
  const busy = useSignal(false);
  const anyColour = useSignal(true);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const file = data.get('file');
    if (!(file instanceof File) || file.size === 0) {
      problem.value = a.noFile;
      return;
    }
    const body = new FormData();
    const name = String(data.get('name') ?? '').trim();
    if (name !== '') body.set('name', name);
    body.set('copies', String(data.get('copies') ?? '1'));
    body.set('priority', String(data.get('priority') ?? '0'));
    if (data.get('held') === 'on') body.set('held', 'true');
    const requirements: Record<string, unknown> = {};
    const printer = String(data.get('printer') ?? '');
    if (printer !== '') requirements.printer_ids = [printer];
    const material = String(data.get('material') ?? '').trim();
    if (material !== '') {
      requirements.filaments = [{ filament: 1, material, color_hex: anyColour.value ? null : String(data.get('colour')).toUpperCase() }];
    }
    if (Object.keys(requirements).length > 0) body.set('requirements', JSON.stringify(requirements));
    // The file goes last: the server reads the fields before the file's bytes arrive.
    body.set('file', file, file.name);
    busy.value = true;
    problem.value = null;
    try {
      const job = await api('POST /api/queue', { body });
      form.reset();
      anyColour.value = true;
      onAdded(job.name);
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    } finally {
      busy.value = false;
    }
  };

  return (
    <section class="panel" aria-labelledby="add-job-heading">
      <h2 id="add-job-heading">{a.heading}</h2>
      <form class="form grid-form" onSubmit={submit}>
        <div class="field wide">
          <label for="job-file">{a.file}</label>
          <input id="job-file" name="file" type="file" accept=".gcode,.gco,.g,.3mf" aria-describedby="job-file-hint" required />
          <p class="hint" id="job-file-hint">
            {a.fileHint}
          </p>
        </div>
        <div class="field">
          <label for="job-name">{a.name}</label>
          <input id="job-name" name="name" type="text" aria-describedby="job-name-hint" />
          <p class="hint" id="job-name-hint">
            {a.nameHint}
          </p>
        </div>
        <div class="field">
          <label for="job-copies">{a.copies}</label>
          <input id="job-copies" name="copies" type="number" min={1} max={1000} value="1" required />
        </div>
        <div class="field">
          <label for="job-priority">{a.priority}</label>
          <input id="job-priority" name="priority" type="number" min={-1000} max={1000} value="0" required />
        </div>
        <div class="field">
          <label for="job-printer">{a.printer}</label>
          <select id="job-printer" name="printer">
            <option value="">{a.anyPrinter}</option>
            <Options items={printers} />
          </select>
        </div>
        <div class="field">
          <label for="job-material">{a.material}</label>
          <input id="job-material" name="material" type="text" aria-describedby="job-material-hint" />
          <p class="hint" id="job-material-hint">
            {a.materialHint}
          </p>
        </div>
        <div class="field">
          <label for="job-colour">{a.colour}</label>
          <input id="job-colour" name="colour" type="color" value="#000000" disabled={anyColour.value} />
          <label class="check">
            <input
              type="checkbox"
              checked={anyColour.value}
              onChange={(e) => {
                anyColour.value = (e.currentTarget as HTMLInputElement).checked;
              }}
            />
            {a.anyColour}
          </label>
        </div>
        <label class="check wide">
          <input type="checkbox" name="held" />
          {a.held}
        </label>
        {problem.value !== null && (
          <p class="error-text wide" role="alert">
            {problem.value}
          </p>
        )}
        <div class="wide">
          <button type="submit" class="primary" disabled={busy.value}>
            {a.submit}
          </button>
        </div>
      </form>
    </section>
  );
}
