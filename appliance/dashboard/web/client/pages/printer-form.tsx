/**
 * Adding (`/printers/new`) and changing (`/printers/:id/edit`) a printer, for admins: the name,
 * model, vendor (for types without a fixed maker), enabled, and the type's connection fields as
 * `GET /api/printer-types` describes them. Adding offers "Find printers" (find-printers.tsx):
 * a printer found fills the form. Editing also deletes, after asking. The API's refusals land on
 * the fields they name.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, ApiError, reason } from '../api/client';
import { can } from '../api/session';
import type { PrinterView } from '../fleet/store';
import { Field } from '../form-field';
import { ConnectionFields, type PrinterType } from '../printer/connection-fields';
import { FindPrinters, type FoundPrinter } from '../printer/find-printers';
import { createBody, editBody, initialValues } from '../printer/form-body';
import { followLink, navigate } from '../router';
import type { RouteParams } from '../routes';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

/** `body/connection/host` → `host`; `body/name` → `name`. */
function fieldErrors(err: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (err instanceof ApiError) {
    for (const detail of err.details) {
      const field = detail.path.replace(/^body\/(connection\/)?/, '');
      errors[field] = detail.message;
    }
  }
  return errors;
}

/** The required connection fields still empty. */
function connectionFieldsMissing(type: PrinterType, values: Record<string, string>): string[] {
  const required = (type.connection as { required?: string[] }).required ?? [];
  return required.filter((field) => (values[field] ?? '').trim() === '');
}

export function PrinterFormPage({ params }: { params: RouteParams }) {
  const editing = params.id ?? null;
  const types = useSignal<PrinterType[] | null>(null);
  const view = useSignal<PrinterView | null>(null);
  const typeName = useSignal('');
  const name = useSignal('');
  const model = useSignal('');
  const vendor = useSignal('');
  const enabled = useSignal(true);
  const connection = useSignal<Record<string, string>>({});
  const errors = useSignal<Record<string, string>>({});
  const problem = useSignal<string | null>(null);
  const busy = useSignal(false);
  const notice = useSignal<string | null>(null);

  const fill = (type: PrinterType, printer: PrinterView | null) => {
    const values = initialValues(type, printer);
    typeName.value = type.type;
    name.value = values.name;
    model.value = values.model;
    vendor.value = values.vendor;
    enabled.value = values.enabled;
    connection.value = values.connection;
  };

  useEffect(() => {
    (async () => {
      const listed = (await api('GET /api/printer-types')).items;
      const printer = editing === null ? null : await api('GET /api/printers/{id}', { path: { id: editing } });
      types.value = listed;
      view.value = printer;
      const type = listed.find((candidate) => candidate.type === (printer?.type ?? listed[0]?.type));
      if (type !== undefined) fill(type, printer);
    })().catch((err: unknown) => {
      problem.value = reason(err, t.errors.network);
    });
  }, [editing]);

  const title = editing === null ? t.printerForm.addTitle : t.printerForm.editTitle(view.value?.name ?? '');
  if (!can('admin')) {
    return (
      <section class="narrow">
        <h1 tabIndex={-1}>{title}</h1>
        <p class="error-text">{t.printerForm.adminOnly}</p>
      </section>
    );
  }
  const type = types.value?.find((candidate) => candidate.type === typeName.value);
  if (type === undefined) {
    return (
      <section class="narrow">
        <h1 tabIndex={-1}>{title}</h1>
        {problem.value === null ? (
          <p>{t.loading}</p>
        ) : (
          <p class="error-text" role="alert">
            {problem.value}
          </p>
        )}
      </section>
    );
  }

  const submit = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    problem.value = null;
    errors.value = {};
    const values = { name: name.value, model: model.value, vendor: vendor.value, enabled: enabled.value, connection: connection.value };
    try {
      if (view.value === null) {
        const created = await api('POST /api/printers', { body: createBody(type, values) as never });
        navigate(`/printers/${encodeURIComponent(created.id)}`);
      } else {
        const body = editBody(type, values, view.value);
        if (Object.keys(body).length > 0) await api('PUT /api/printers/{id}', { path: { id: view.value.id }, body: body as never });
        navigate(`/printers/${encodeURIComponent(view.value.id)}`);
      }
    } catch (err) {
      errors.value = fieldErrors(err);
      problem.value = reason(err, t.errors.network);
    } finally {
      busy.value = false;
    }
  };

  const remove = async () => {
    const printer = view.value;
    if (printer === null || !window.confirm(t.printerForm.confirmDelete(printer.name))) return;
    busy.value = true;
    try {
      await api('DELETE /api/printers/{id}', { path: { id: printer.id } });
      navigate('/');
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    } finally {
      busy.value = false;
    }
  };

  /** A found printer into the form; the fields it does not name (a Bambu access code) stay for the admin. */
  const useFound = (found: FoundPrinter) => {
    const foundType = types.value?.find((candidate) => candidate.type === found.type);
    if (foundType === undefined) return;
    fill(foundType, null);
    if (found.name !== undefined) name.value = found.name;
    if (found.model !== undefined) model.value = found.model;
    const given = Object.fromEntries(Object.entries(found.connection).map(([key, value]) => [key, String(value)]));
    connection.value = { ...connection.value, ...given };
    errors.value = {};
    const missing = connectionFieldsMissing(foundType, connection.value);
    notice.value = missing.length > 0 ? t.printerForm.find.filledBambu(name.value) : t.printerForm.find.filled(name.value);
    window.setTimeout(() => document.getElementById(missing.length > 0 ? `conn-${missing[0]}` : 'printer-name')?.focus());
  };

  const stored = view.value?.connection as Record<string, unknown> | undefined;
  const secretsSet = stored === undefined ? null : Object.fromEntries(type.secrets.map((field) => [field, stored[`${field}_set`] === true]));
  return (
    <section class="narrow printer-form">
      <h1 tabIndex={-1}>{title}</h1>
      {view.value === null && <FindPrinters onUse={useFound} />}
      <form class="form" onSubmit={(e) => void submit(e)} noValidate>
        <p class="notice" role="status">
          {notice.value ?? ''}
        </p>
        <ProblemAlert message={problem.value} />
        <div class="field">
          <label for="printer-type">{t.printerForm.type}</label>
          <select
            id="printer-type"
            value={type.type}
            disabled={view.value !== null}
            aria-describedby={view.value !== null ? 'printer-type-hint' : undefined}
            onChange={(e) => {
              const next = types.value?.find((candidate) => candidate.type === (e.currentTarget as HTMLSelectElement).value);
              if (next !== undefined) fill(next, null);
            }}
          >
            {(types.value ?? []).map((candidate) => (
              <option key={candidate.type} value={candidate.type}>
                {t.printer.types[candidate.type] ?? candidate.label}
              </option>
            ))}
          </select>
          {view.value !== null && (
            <p class="hint" id="printer-type-hint">
              {t.printerForm.typeFixed}
            </p>
          )}
        </div>
        <Field id="printer-name" label={t.printerForm.name} value={name} error={errors.value.name ?? null} />
        <Field
          id="printer-model"
          label={t.printerForm.model}
          value={model}
          required={false}
          hint={t.printerForm.modelHint}
          error={errors.value.model ?? null}
        />
        {type.fixed_vendor === null && (
          <Field id="printer-vendor" label={t.printerForm.vendor} value={vendor} required={false} error={errors.value.vendor ?? null} />
        )}
        <div class="field check">
          <label>
            <input type="checkbox" checked={enabled.value} onChange={(e) => (enabled.value = (e.currentTarget as HTMLInputElement).checked)} />{' '}
            {t.printerForm.enabled}
          </label>
        </div>
        <ConnectionFields type={type} values={connection} errors={errors.value} secretsSet={secretsSet} />
        <div class="button-row">
          <button type="submit" class="primary" disabled={busy.value}>
            {view.value === null ? t.printerForm.add : t.printerForm.save}
          </button>
          <a class="button" href={view.value === null ? '/' : `/printers/${encodeURIComponent(view.value.id)}`} onClick={followLink}>
            {t.printerForm.cancel}
          </a>
          {view.value !== null && (
            <button type="button" class="danger" disabled={busy.value} onClick={() => void remove()}>
              {t.printerForm.delete}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
