/**
 * "Find printers" on the add-printer form: `GET /api/printers/discover` on request (probing a USB
 * port resets most boards, so never on page load), the Bambu Lab printers heard on the network and
 * the serial ports with what M115 said, each found printer with "Use", which hands the API's
 * ready `add` body to the form. A Bambu printer's access code is not announced: the form asks.
 */
import { useSignal } from '@preact/signals';
import { api, reason, type Ok } from '../api/client';
import { t } from '../texts';
import { ProblemAlert } from '../problem-alert';

type Found = Ok<'GET /api/printers/discover'>;
/** A body for POST /api/printers as discovery offers it: name, type, model, connection. */
export interface FoundPrinter {
  name?: string;
  type: string;
  model?: string;
  connection: Record<string, string | number>;
}

const f = t.printerForm.find;

function probeText(probe: Record<string, unknown> | null | undefined): string | null {
  if (probe === null || probe === undefined) return null;
  if (probe.marlin === true) return f.marlin([probe.machine_type, probe.firmware].filter((x) => typeof x === 'string').join(', '));
  return f.notMarlin(String(probe.reason ?? '?'));
}

export function FindPrinters({ onUse }: { onUse: (found: FoundPrinter) => void }) {
  const found = useSignal<Found | null>(null);
  const busy = useSignal(false);
  const problem = useSignal<string | null>(null);

  const search = async () => {
    busy.value = true;
    problem.value = null;
    try {
      found.value = await api('GET /api/printers/discover');
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    } finally {
      busy.value = false;
    }
  };

  const use = (add: unknown, what: string) =>
    add !== null && (
      <button type="button" aria-label={f.useLabel(what)} onClick={() => onUse(add as FoundPrinter)}>
        {f.use}
      </button>
    );

  const result = found.value;
  let label = result === null ? f.search : f.again;
  if (busy.value) label = f.searching;
  return (
    <section class="panel find-printers" aria-labelledby="find-heading">
      <h2 id="find-heading">{f.heading}</h2>
      <p class="hint">{f.intro}</p>
      <button type="button" disabled={busy.value} onClick={() => void search()}>
        {label}
      </button>
      <ProblemAlert message={problem.value} />
      {result !== null && (
        <>
          <h3>{f.bambu}</h3>
          {!result.bambu.listening && <p class="warn-text">{f.bambuOff(result.bambu.error ?? '?')}</p>}
          {result.bambu.printers.length === 0 ? (
            <p class="empty">{f.bambuNone}</p>
          ) : (
            <ul class="found">
              {result.bambu.printers.map((p) => (
                <li key={p.serial} data-found={p.serial}>
                  <span>
                    <strong>{p.name ?? p.serial}</strong> {p.model ?? ''} <span class="muted">{`${p.host} · ${p.serial}`}</span>
                  </span>
                  {p.added ? <span class="muted">{f.added}</span> : use(p.add, p.name ?? p.serial)}
                </li>
              ))}
            </ul>
          )}
          <h3>{f.serial}</h3>
          {result.serial.error !== null && <p class="warn-text">{f.serialError(result.serial.error)}</p>}
          {result.serial.ports.length === 0 ? (
            <p class="empty">{f.serialNone}</p>
          ) : (
            <ul class="found">
              {result.serial.ports.map((port) => (
                <li key={port.path} data-found={port.path}>
                  <span>
                    <strong>{port.by_id_path ?? port.path}</strong> {port.manufacturer ?? ''}{' '}
                    <span class="muted">
                      {port.in_use_by !== null ? f.inUse(port.in_use_by) : (probeText(port.probe as Record<string, unknown> | null) ?? '')}
                    </span>
                  </span>
                  {use(port.add, port.by_id_path ?? port.path)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
