/**
 * Where the model comes in: a drop zone for a dragged file and, for keyboards and phones, a file
 * picker (the real input, visually hidden behind its label, so it keeps its focus and its name).
 */
import { useSignal } from '@preact/signals';
import { t } from '../texts';
import type { SliceStore } from './store';

const ACCEPT = '.stl,.3mf,model/stl,model/3mf,application/vnd.ms-pki.stl';

export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function ModelDrop({ store }: { store: SliceStore }) {
  const over = useSignal(false);
  const model = store.model.value;
  const take = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) store.chooseModel(file);
  };
  return (
    <section class="slice-step" aria-labelledby="slice-model-title">
      <h2 id="slice-model-title">{t.slice.model}</h2>
      <fieldset
        class="drop"
        data-over={over.value ? 'true' : undefined}
        onDragOver={(e) => {
          e.preventDefault();
          over.value = true;
        }}
        onDragLeave={() => {
          over.value = false;
        }}
        onDrop={(e) => {
          e.preventDefault();
          over.value = false;
          take(e.dataTransfer?.files);
        }}
      >
        <legend class="drop-text">{t.slice.drop}</legend>
        <input
          id="slice-model"
          class="visually-hidden"
          type="file"
          accept={ACCEPT}
          onChange={(e) => take((e.currentTarget as HTMLInputElement).files)}
        />
        <label for="slice-model" class="button">
          {t.slice.choose}
        </label>
        <p class="drop-file" aria-live="polite">
          {model === null ? t.slice.noModel : t.slice.chosen(model.name, sizeText(model.size))}
        </p>
      </fieldset>
    </section>
  );
}
