/**
 * Every other setting of config.json, as a form built from the schema GET /api/settings sends
 * (section, key, type, limits, description), one save per section. A key the environment holds is
 * shown read-only with its variable: a change saved to the file would not take effect.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, ApiError, reason } from '../api/client';
import { t } from '../texts';
import { OutcomeLine, Section, type Outcome } from './section';
import { ProblemAlert } from '../problem-alert';

interface KeySpec {
  type: string | string[];
  description: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  'x-secret'?: boolean;
}
interface SectionSpec {
  description: string;
  properties: Record<string, KeySpec>;
}
type Values = Record<string, Record<string, unknown>>;

/** Sections with a form of their own on this page. */
const OWN_FORMS = new Set(['box', 'slicer_service']);

function KeyInput({ id, spec, value, held, onChange }: { id: string; spec: KeySpec; value: unknown; held: boolean; onChange: (v: unknown) => void }) {
  if (spec.type === 'boolean') {
    return (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        disabled={held}
        onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
      />
    );
  }
  if (spec.enum !== undefined) {
    return (
      <select id={id} value={String(value)} disabled={held} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
        {spec.enum.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  }
  const shown = value === null || value === undefined ? '' : String(value);
  if (spec.type === 'integer' || spec.type === 'number') {
    return (
      <input
        id={id}
        type="number"
        step={spec.type === 'integer' ? 1 : 'any'}
        min={spec.minimum}
        max={spec.maximum}
        value={shown}
        disabled={held}
        onInput={(e) => {
          const text = e.currentTarget.value;
          onChange(text !== '' && Number.isFinite(Number(text)) ? Number(text) : text);
        }}
      />
    );
  }
  return <input id={id} type="text" value={shown} disabled={held} onInput={(e) => onChange(e.currentTarget.value)} />;
}

function SectionForm({
  name,
  spec,
  saved,
  held,
  applied,
}: {
  name: string;
  spec: SectionSpec;
  saved: Record<string, unknown>;
  held: Map<string, string>;
  applied: (values: Values) => void;
}) {
  const draft = useSignal<Record<string, unknown>>({ ...saved });
  const errors = useSignal<Record<string, string>>({});
  const outcome = useSignal<Outcome | null>(null);
  const keys = Object.entries(spec.properties).filter(([, key]) => key['x-secret'] !== true);
  const save = async (event: Event) => {
    event.preventDefault();
    errors.value = {};
    outcome.value = null;
    const patch = Object.fromEntries(
      keys.filter(([key]) => !held.has(`${name}.${key}`) && draft.value[key] !== saved[key]).map(([key]) => [key, draft.value[key]]),
    );
    if (Object.keys(patch).length === 0) {
      outcome.value = { ok: true, text: t.settings.nothingChanged };
      return;
    }
    try {
      const answer = await api('PATCH /api/settings', { body: { [name]: patch } });
      applied(answer.values as Values);
      outcome.value = { ok: true, text: t.settings.saved };
    } catch (err) {
      const byKey: Record<string, string> = {};
      if (err instanceof ApiError) for (const d of err.details) byKey[d.path.replace(`${name}.`, '')] = d.message;
      errors.value = byKey;
      if (Object.keys(byKey).length === 0) outcome.value = { ok: false, text: reason(err, t.errors.network) };
    }
  };
  return (
    <form class="form preferences" onSubmit={save} aria-labelledby={`pref-${name}`}>
      <h3 id={`pref-${name}`}>{t.settings.preferences.section(name, spec.description)}</h3>
      {keys.map(([key, keySpec]) => {
        const id = `pref-${name}-${key}`;
        const variable = held.get(`${name}.${key}`);
        const error = errors.value[key];
        return (
          <div key={key} class={keySpec.type === 'boolean' ? 'field check-field' : 'field'}>
            <label for={id}>{key}</label>
            <KeyInput
              id={id}
              spec={keySpec}
              value={draft.value[key]}
              held={variable !== undefined}
              onChange={(value) => {
                draft.value = { ...draft.value, [key]: value };
              }}
            />
            <p class="hint">
              {keySpec.description}
              {variable !== undefined ? ` ${t.settings.preferences.held(variable)}` : ''}
            </p>
            {error !== undefined && <p class="error-text">{error}</p>}
          </div>
        );
      })}
      <div>
        <button type="submit">{t.settings.preferences.saveSection(name)}</button>
      </div>
      <OutcomeLine outcome={outcome.value} />
    </form>
  );
}

export function PreferencesSection() {
  const values = useSignal<Values | null>(null);
  const schema = useSignal<Record<string, SectionSpec>>({});
  const held = useSignal(new Map<string, string>());
  const problem = useSignal<string | null>(null);
  useEffect(() => {
    api('GET /api/settings').then(
      (answer) => {
        values.value = answer.values as Values;
        schema.value = (answer.schema as { properties: Record<string, SectionSpec> }).properties;
        held.value = new Map(answer.environment.map((e) => [e.key, e.variable]));
      },
      (err: unknown) => {
        problem.value = reason(err, t.errors.network);
      },
    );
  }, []);
  const current = values.value;
  return (
    <Section id="preferences" title={t.settings.preferences.title} intro={t.settings.preferences.intro}>
      <ProblemAlert message={problem.value} />
      {current !== null &&
        Object.entries(schema.value)
          .filter(([name]) => !OWN_FORMS.has(name))
          .map(([name, spec]) => (
            <SectionForm
              key={name}
              name={name}
              spec={spec}
              saved={current[name] ?? {}}
              held={held.value}
              applied={(next) => {
                values.value = next;
              }}
            />
          ))}
    </Section>
  );
}
