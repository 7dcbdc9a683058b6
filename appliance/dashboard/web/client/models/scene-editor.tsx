/**
 * One scene open: its objects' names and transforms (move, turn about Z, scale, mirror), the
 * profiles to slice with (the slice page's picker and catalogue), then Save, Arrange, Slice and
 * Download 3MF. A slice shows the slice page's result and send panel (start on an idle printer,
 * add to the queue). Refusals (overlap, outside the bed, missing objects) are said in words.
 * Without the print role the scene is shown, not edited.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { ApiError, reason } from '../api/client';
import { ProfilePicker } from '../slicing/profile-picker';
import { SendPanel } from '../slicing/send-panel';
import { SliceResultView } from '../slicing/slice-result';
import type { ProfileSource, SliceStore } from '../slicing/store';
import { t } from '../texts';
import { type Axis, type Draft, type DraftObject, draftOf, inputOf, NUMBER_FIELDS, type NumberField } from './scene-draft';
import { type ModelsStore, saveFile, type Scene } from './store';

const m = t.models;
const AXES: readonly Axis[] = ['x', 'y', 'z'];
const NUMBER_LABELS: Record<NumberField, string> = {
  tx: m.translateX,
  ty: m.translateY,
  tz: m.sinkZ,
  rz: m.rotateZ,
  sx: m.scaleX,
  sy: m.scaleY,
  sz: m.scaleZ,
};

/** The words for a refused scene action, by the API's code. */
function problemText(err: unknown): string {
  const why = reason(err, t.errors.network);
  if (!(err instanceof ApiError)) return m.problems.other(why);
  if (err.code === 'ERR_MODEL_OUTSIDE_BED') return m.problems.outside(why);
  if (err.code === 'ERR_CONFLICT') return /overlap/i.test(err.message) ? m.problems.overlap(why) : m.problems.conflict(why);
  if (err.code === 'ERR_PROFILE_NOT_FOUND') return m.problems.profile(why);
  // A saved scene names a job that was deleted (the object shows as missing).
  if (err.code === 'ERR_NOT_FOUND') return m.problems.gone(why);
  return m.problems.other(why);
}

function ObjectFields({
  object,
  index,
  onChange,
  onRemove,
}: {
  object: DraftObject;
  index: number;
  onChange: (o: DraftObject) => void;
  onRemove: () => void;
}) {
  const id = (part: string) => `scene-obj-${index}-${part}`;
  return (
    <fieldset class="scene-object" data-object={index}>
      <legend>{object.name}</legend>
      {object.missing !== null && <p class="error-text">{m.missing(object.missing)}</p>}
      <div class="scene-object-fields">
        <div class="field">
          <label for={id('name')}>{m.objectName}</label>
          <input
            id={id('name')}
            type="text"
            value={object.name}
            onInput={(e) => onChange({ ...object, name: (e.currentTarget as HTMLInputElement).value })}
          />
        </div>
        {NUMBER_FIELDS.map((field) => (
          <div class="field" key={field}>
            <label for={id(field)}>{NUMBER_LABELS[field]}</label>
            <input
              id={id(field)}
              type="number"
              step="any"
              value={object.numbers[field]}
              onInput={(e) => onChange({ ...object, numbers: { ...object.numbers, [field]: (e.currentTarget as HTMLInputElement).value } })}
            />
          </div>
        ))}
      </div>
      <div class="scene-object-row">
        <span class="mirror-label">{m.mirror}</span>
        {AXES.map((axis) => (
          <label class="check" key={axis}>
            <input
              type="checkbox"
              checked={object.mirror[axis]}
              aria-label={m.mirrorAxis(axis.toUpperCase())}
              onChange={(e) => onChange({ ...object, mirror: { ...object.mirror, [axis]: (e.currentTarget as HTMLInputElement).checked } })}
            />
            {axis.toUpperCase()}
          </label>
        ))}
        <button type="button" class="danger" aria-label={m.removeLabel(object.name)} onClick={onRemove}>
          {m.remove}
        </button>
      </div>
    </fieldset>
  );
}

function ReadOnlyObjects({ scene }: { scene: Scene }) {
  return (
    <ul class="scene-read">
      {scene.objects.map((o, i) => (
        <li key={i}>
          <strong>{o.name}</strong>{' '}
          {`x ${o.transform.translate.x} mm, y ${o.transform.translate.y} mm, ${o.transform.rotate.z}°, ×${o.transform.scale.x}`}
          {o.missing !== null && <span class="error-text"> {m.missing(o.missing)}</span>}
        </li>
      ))}
    </ul>
  );
}

interface EditorProps {
  store: ModelsStore;
  slicing: SliceStore;
  scene: Scene;
  allowed: boolean;
  onClose: () => void;
  onSource: (source: ProfileSource) => void;
}

export function SceneEditor({ store, slicing, scene, allowed, onClose, onSource }: EditorProps) {
  const draft = useSignal<Draft>(draftOf(scene));
  const busy = useSignal<'save' | 'arrange' | 'slice' | 'download' | 'delete' | null>(null);
  const message = useSignal<{ ok: boolean; text: string } | null>(null);

  // Another scene opened (or this one changed on the server): start from what is stored.
  useEffect(() => {
    draft.value = draftOf(scene);
    slicing.printerProfile.value = scene.printer_id ?? '';
    slicing.filamentProfile.value = scene.filament_ids?.[0] ?? '';
    slicing.processProfile.value = scene.process_id ?? '';
  }, [scene.id, scene.updated_at, scene.missing]);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the list, which may be a screen away on a phone: the editor comes into view with the focus.
  useEffect(() => {
    heading.current?.focus();
    return () => slicing.cancel();
  }, [scene.id]);

  const profiles = () => ({
    printer_id: slicing.printerProfile.value || null,
    filament_ids: slicing.filamentProfile.value ? [slicing.filamentProfile.value] : null,
    process_id: slicing.processProfile.value || null,
  });

  const run = async (what: NonNullable<typeof busy.value>, action: () => Promise<string | null>) => {
    busy.value = what;
    message.value = null;
    try {
      const done = await action();
      if (done !== null) message.value = { ok: true, text: done };
    } catch (err) {
      message.value = { ok: false, text: problemText(err) };
    } finally {
      busy.value = null;
    }
  };

  const save = async (): Promise<void> => {
    const input = inputOf(draft.value, profiles());
    if ('invalid' in input) throw new Error(`${t.models.invalidNumber} ${input.invalid}`);
    await store.saveScene(scene.id, input);
  };

  const onSave = () =>
    run('save', async () => {
      await save();
      return m.saved;
    });
  const onArrange = () =>
    run('arrange', async () => {
      await save();
      await store.arrange(scene.id, slicing.printerProfile.value || null);
      return m.arranged;
    });
  const onSlice = () =>
    run('slice', async () => {
      slicing.cancel();
      await save();
      const result = await store.slice(scene.id);
      // "Slice and start" slices the scene again for the chosen printer, its calibration changes included.
      await slicing.showResult(result, await store.sceneFile(scene.id), (printerId, profileId) => store.sliceAndSend(scene.id, printerId, profileId));
      return null;
    });
  const onDownload = () =>
    run('download', async () => {
      const file = await store.sceneFile(scene.id);
      saveFile(file, file.name);
      return null;
    });
  const onGcode = (resultId: string) =>
    run('download', async () => {
      const { blob, name } = await store.gcodeFile(resultId);
      saveFile(blob, name);
      return null;
    });
  const onDelete = () => {
    if (!window.confirm(m.confirmDeleteScene)) return;
    void run('delete', async () => {
      await store.deleteScene(scene.id);
      onClose();
      return null;
    });
  };

  const d = draft.value;
  const result = slicing.result.value;
  return (
    <section class="models-section scene-editor" aria-labelledby="scene-edit-title" data-scene={scene.id}>
      <div class="scene-editor-head">
        <h3 id="scene-edit-title" tabIndex={-1} ref={heading}>
          {scene.name}
        </h3>
        <button type="button" onClick={onClose}>
          {m.close}
        </button>
      </div>
      {allowed ? (
        <>
          <div class="field">
            <label for="scene-edit-name">{m.sceneName}</label>
            <input
              id="scene-edit-name"
              type="text"
              value={d.name}
              onInput={(e) => (draft.value = { ...d, name: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
          <h4>{m.objects}</h4>
          {d.objects.map((object, index) => (
            <ObjectFields
              key={`${object.job_id}-${index}`}
              object={object}
              index={index}
              onChange={(next) => (draft.value = { ...d, objects: d.objects.map((o, i) => (i === index ? next : o)) })}
              onRemove={() => (draft.value = { ...d, objects: d.objects.filter((_, i) => i !== index) })}
            />
          ))}
          <ProfilePicker store={slicing} onSource={onSource} />
          <div class="scene-actions">
            <button type="button" onClick={onSave} disabled={busy.value !== null}>
              {m.save}
            </button>
            <button type="button" onClick={onArrange} disabled={busy.value !== null}>
              {m.arrange}
            </button>
            <button type="button" class="primary" onClick={onSlice} disabled={busy.value !== null}>
              {busy.value === 'slice' ? m.slicing : m.slice}
            </button>
            <button type="button" onClick={onDownload} disabled={busy.value !== null}>
              {m.download3mfScene}
            </button>
            <button type="button" class="danger" onClick={onDelete} disabled={busy.value !== null}>
              {m.deleteScene}
            </button>
          </div>
        </>
      ) : (
        <>
          <ReadOnlyObjects scene={scene} />
          <div class="scene-actions">
            <button type="button" onClick={onDownload} disabled={busy.value !== null}>
              {m.download3mfScene}
            </button>
          </div>
        </>
      )}
      {message.value !== null && (
        <p class={message.value.ok ? 'note' : 'error-text'} role={message.value.ok ? 'status' : 'alert'} data-scene-message>
          {message.value.text}
        </p>
      )}
      {allowed && result !== null && (
        <div class="scene-result">
          <SliceResultView result={result} preview={slicing.preview.value} />
          <button type="button" onClick={() => onGcode(result.id)} disabled={busy.value !== null}>
            {m.downloadGcode}
          </button>
          <SendPanel store={slicing} result={result} />
        </div>
      )}
    </section>
  );
}
