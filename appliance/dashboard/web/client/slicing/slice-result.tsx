/** A finished slice: the first layer seen from above, the estimate, and which backend sliced and why. */
import { duration } from '../fleet/format';
import { t } from '../texts';
import type { SliceResult } from './store';

const metres = (mm: number) => mm / 1000;

export function SliceResultView({ result, preview }: { result: SliceResult; preview: string | null }) {
  const grams = result.filament_g.reduce((a, b) => a + b, 0);
  const length = result.filament_mm.reduce((a, b) => a + b, 0);
  return (
    <section class="slice-step slice-result" aria-labelledby="slice-result-title">
      <h2 id="slice-result-title">{t.slice.result}</h2>
      <div class="result-body">
        {preview === null ? (
          <p class="preview preview-none">{t.slice.noPreview}</p>
        ) : (
          <img class="preview" src={preview} alt={t.slice.previewAlt(result.file_name)} />
        )}
        <dl class="estimate">
          <div>
            <dt>{t.slice.time}</dt>
            <dd data-estimate="time">{result.estimated_time_s === null ? t.slice.unknown : duration(result.estimated_time_s)}</dd>
          </div>
          <div>
            <dt>{t.slice.filament}</dt>
            <dd data-estimate="filament">{t.slice.filamentAmount(grams, metres(length))}</dd>
          </div>
          <div>
            <dt>{t.slice.layers}</dt>
            <dd>{result.layers ?? t.slice.unknown}</dd>
          </div>
          <div>
            <dt>{t.slice.backend}</dt>
            <dd data-backend={result.backend}>{t.slice.backends[result.backend]}</dd>
          </div>
        </dl>
      </div>
      {result.skipped.length > 0 && (
        <ul class="skipped">
          {result.skipped.map((s) => (
            <li key={s.backend}>{t.slice.skipped(t.slice.backends[s.backend] ?? s.backend, s.reason)}</li>
          ))}
        </ul>
      )}
      {result.warnings.length > 0 && (
        <details class="warnings">
          <summary>
            {t.slice.warnings} ({result.warnings.length})
          </summary>
          <ul>
            {result.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
