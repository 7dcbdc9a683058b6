/**
 * The slice page's state and what it asks the API: the profile catalogue (the slicer service's
 * when it is reachable, else the built-in engine's), one slice of one model through the fallback
 * chain with its progress (POST /api/slicer/remote/slice/events), the stored result's first-layer
 * picture, and what is done with the result: sent to an idle printer (slice-and-send) or added to
 * the queue (the sliced file, POST /api/queue).
 */
import { computed, signal } from '@preact/signals';
import { api, ApiError, type Ok, send } from '../api/client';
import { followEvents } from '../api/events';

export type SliceResult = Ok<'POST /api/slicer/remote/slice'>;
export type RemoteStatus = Ok<'GET /api/slicer/remote/status'>;
export type PrinterView = Ok<'GET /api/printers'>['items'][number];
export type ProfileKind = 'printer' | 'filament' | 'process';

export interface ProfileOption {
  id: string;
  name: string;
}

/** Where the profiles come from: the slicer service's catalogue or the built-in engine's. */
export type ProfileSource = 'remote' | 'native';

export type Phase = 'idle' | 'slicing' | 'done' | 'failed';
export type SliceAndSent = Ok<'POST /api/slicer/remote/slice-and-send'>;
/** How a result shown from elsewhere is sliced again for a printer and started there. */
export type SendToPrinter = (printerId: string, printerProfileId: string) => Promise<SliceAndSent>;

export interface SliceProblem {
  /** The API's code (`ERR_BAD_MODEL`…), which picks the words shown. */
  code: string;
  message: string;
  /** The HTTP status the error would have had (error events carry it). */
  status?: number;
}

export interface Progress {
  stage: string;
  pct: number;
}

const KINDS: readonly ProfileKind[] = ['printer', 'filament', 'process'];
const byName = (a: ProfileOption, b: ProfileOption) => a.name.localeCompare(b.name, undefined, { numeric: true });

function problemOf(err: unknown): SliceProblem {
  if (err instanceof ApiError) return { code: err.code, message: err.message };
  return { code: err instanceof TypeError ? 'ERR_NETWORK' : 'ERR_INTERNAL', message: String(err) };
}

export class SliceStore {
  readonly remote = signal<RemoteStatus | null>(null);
  readonly source = signal<ProfileSource>('native');
  readonly profiles = signal<Record<ProfileKind, ProfileOption[]>>({ printer: [], filament: [], process: [] });
  readonly profilesLoaded = signal(false);
  readonly printers = signal<PrinterView[]>([]);

  readonly model = signal<File | null>(null);
  readonly printerProfile = signal('');
  readonly filamentProfile = signal('');
  readonly processProfile = signal('');

  readonly phase = signal<Phase>('idle');
  readonly progress = signal<Progress | null>(null);
  readonly result = signal<SliceResult | null>(null);
  readonly preview = signal<string | null>(null);
  readonly problem = signal<SliceProblem | null>(null);
  private running: AbortController | null = null;
  private sendWith: SendToPrinter | null = null;

  /** The service may be used for profiles: enabled, reachable, and speaking our API. */
  readonly remoteUsable = computed(() => this.remote.value?.ok === true);

  readonly ready = computed(
    () => this.model.value !== null && this.printerProfile.value !== '' && this.filamentProfile.value !== '' && this.processProfile.value !== '',
  );

  /** Reads the service's status, then the catalogue of the source it allows. */
  async load(): Promise<void> {
    try {
      this.remote.value = await api('GET /api/slicer/remote/status');
    } catch {
      this.remote.value = null;
    }
    await this.loadProfiles(this.remoteUsable.value ? 'remote' : 'native');
  }

  async loadProfiles(source: ProfileSource): Promise<void> {
    this.source.value = source;
    this.profilesLoaded.value = false;
    const items =
      source === 'remote'
        ? (await api('GET /api/slicer/remote/profiles', { query: { kind: 'all' } })).profiles
        : (await api('GET /api/slicer/native/profiles')).profiles;
    const next: Record<ProfileKind, ProfileOption[]> = { printer: [], filament: [], process: [] };
    for (const p of items) if ((KINDS as readonly string[]).includes(p.kind)) next[p.kind as ProfileKind].push({ id: p.id, name: p.name });
    for (const kind of KINDS) next[kind].sort(byName);
    this.profiles.value = next;
    // A choice the new catalogue does not have is cleared; the person picks again.
    const keep = (choice: typeof this.printerProfile, kind: ProfileKind) => {
      if (!next[kind].some((p) => p.id === choice.value)) choice.value = '';
    };
    keep(this.printerProfile, 'printer');
    keep(this.filamentProfile, 'filament');
    keep(this.processProfile, 'process');
    this.profilesLoaded.value = true;
  }

  async loadPrinters(): Promise<void> {
    this.printers.value = (await api('GET /api/printers')).items;
  }

  chooseModel(file: File): void {
    this.model.value = file;
    this.reset();
  }

  private reset(): void {
    this.running?.abort();
    this.sendWith = null;
    this.phase.value = 'idle';
    this.progress.value = null;
    this.result.value = null;
    this.problem.value = null;
    if (this.preview.value !== null) URL.revokeObjectURL(this.preview.value);
    this.preview.value = null;
  }

  /** Stops the slice being followed: the stream closes, and the dashboard cancels the slice. */
  cancel(): void {
    this.reset();
  }

  /** The slice form of the chosen model and profiles; `extra` adds the printer of slice-and-send. */
  private form(extra: Record<string, string> = {}): FormData {
    const model = this.model.value;
    if (model === null) throw new Error('no model chosen');
    const form = new FormData();
    form.set('printer_id', this.printerProfile.value);
    form.set('filament_ids', JSON.stringify([this.filamentProfile.value]));
    form.set('process_id', this.processProfile.value);
    for (const [name, value] of Object.entries(extra)) form.set(name, value);
    form.set('model', model, model.name);
    return form;
  }

  /** Slices with progress; the result (or the problem) lands in the signals. */
  async slice(): Promise<void> {
    this.reset();
    const running = new AbortController();
    this.running = running;
    this.phase.value = 'slicing';
    this.progress.value = { stage: 'upload', pct: 0 };
    try {
      let outcome: SliceResult | SliceProblem | null = null;
      await followEvents('POST /api/slicer/remote/slice/events', { body: this.form(), signal: running.signal }, ({ event, data }) => {
        if (event === 'progress') this.progress.value = JSON.parse(data) as Progress;
        else if (event === 'done') outcome = JSON.parse(data) as SliceResult;
        else if (event === 'error') outcome = JSON.parse(data) as SliceProblem;
      });
      if (running.signal.aborted) return;
      const final = outcome as SliceResult | SliceProblem | null;
      if (final === null) throw new ApiError(503, 'ERR_UNAVAILABLE', 'the slice stream ended without a result');
      if ('code' in final) throw new ApiError(final.status ?? 500, final.code, final.message);
      this.result.value = final;
      this.progress.value = { stage: 'done', pct: 100 };
      this.phase.value = 'done';
      await this.loadPreview(final.id);
    } catch (err) {
      if (running.signal.aborted) return;
      this.problem.value = problemOf(err);
      this.phase.value = 'failed';
    }
  }

  /**
   * Shows a result sliced elsewhere (a scene of the models page) with the model file it was sliced
   * from, so that the send panel starts or queues it as it does a slice of this page.
   */
  async showResult(result: SliceResult, model: File, sendWith?: SendToPrinter): Promise<void> {
    this.reset();
    this.sendWith = sendWith ?? null;
    this.model.value = model;
    this.result.value = result;
    this.phase.value = 'done';
    await this.loadPreview(result.id);
  }

  /** The first layer as an SVG picture (drawn by the dashboard from the stored G-code). */
  private async loadPreview(resultId: string): Promise<void> {
    try {
      const picture = await (await send('GET /api/slicer/remote/preview', { query: { result: resultId, format: 'svg' } }, 'image/svg+xml')).blob();
      this.preview.value = URL.createObjectURL(picture.type === 'image/svg+xml' ? picture : new Blob([picture], { type: 'image/svg+xml' }));
    } catch {
      // The estimate stands without its picture.
      this.preview.value = null;
    }
  }

  /**
   * Slices the model again for `printerId` and starts it there (the slice-and-send path, with
   * fallback), or the way the page that showed the result sends it (a scene, with its calibration
   * changes).
   */
  async sendToPrinter(printerId: string): Promise<SliceAndSent> {
    if (this.sendWith !== null) return this.sendWith(printerId, this.printerProfile.value);
    return api('POST /api/slicer/remote/slice-and-send', {
      body: this.form({ printer_id: printerId, printer_profile_id: this.printerProfile.value }),
    });
  }

  /** Adds the sliced file to the queue as a print-ready job. */
  async addToQueue(copies: number): Promise<Ok<'POST /api/queue'>> {
    const result = this.result.value;
    if (result === null) throw new Error('nothing sliced yet');
    // The file as bytes (api() would read a text/ answer as a string).
    const file = await (await send('GET /api/slicer/results/{id}/gcode', { path: { id: result.id } }, '*/*')).blob();
    const form = new FormData();
    form.set('name', result.file_name.replace(/\.gcode(\.3mf)?$/i, ''));
    form.set('copies', String(copies));
    form.set('file', file, result.file_name);
    return api('POST /api/queue', { body: form });
  }
}
