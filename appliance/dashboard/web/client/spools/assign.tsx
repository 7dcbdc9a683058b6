/** Puts a spool into a printer's slot (a Marlin tool, a Bambu AMS tray or the external spool), or back on its shelf. */
import { useSignal } from '@preact/signals';
import { api, reason } from '../api/client';
import { t } from '../texts';
import type { Printer, Slot, Spool } from './store';
import { Options } from '../options';
import { ProblemAlert } from '../problem-alert';

const a = t.spools.slotForm;

export function slotText(slot: Slot): string {
  if (slot.kind === 'tool') return t.spools.slots.tool(slot.tool);
  if (slot.kind === 'ams') return t.spools.slots.ams(slot.unit, slot.tray);
  return t.spools.slots.external;
}

/** Marlin printers have tools; Bambu Lab printers AMS trays and the external spool. */
function kindFor(bambu: boolean, chosen: 'tool' | 'ams' | 'external'): 'tool' | 'ams' | 'external' {
  if (!bambu) return 'tool';
  return chosen === 'tool' ? 'ams' : chosen;
}

export function AssignSlot({ spool, printers, onDone }: { spool: Spool; printers: Printer[]; onDone: (message: string) => void }) {
  const printerId = useSignal(spool.printer_id ?? printers[0]?.id ?? '');
  const problem = useSignal<string | null>(null);
  const printer = printers.find((p) => p.id === printerId.value);
  const bambu = printer?.type.startsWith('bambu') ?? false;
  const kind = useSignal<'tool' | 'ams' | 'external'>(spool.slot?.kind ?? (bambu ? 'ams' : 'tool'));
  const effectiveKind = kindFor(bambu, kind.value);
  const id = `assign-${spool.id}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const n = (name: string) => Number(data.get(name) ?? 0);
    let slot: Slot = { kind: 'external' };
    if (effectiveKind === 'tool') slot = { kind: 'tool', tool: n('tool') };
    else if (effectiveKind === 'ams') slot = { kind: 'ams', unit: n('unit') - 1, tray: n('tray') - 1 };
    try {
      await api('PUT /api/filaments/{id}', { path: { id: spool.id }, body: { printer_id: printerId.value, slot } });
      onDone(a.done(spool.short_id, t.spools.loadedOn(printer?.name ?? printerId.value, slotText(slot))));
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    }
  };
  const unload = async () => {
    try {
      await api('PUT /api/filaments/{id}', { path: { id: spool.id }, body: { printer_id: null, slot: null } });
      onDone(a.unloaded(spool.short_id));
    } catch (err) {
      problem.value = reason(err, t.errors.network);
    }
  };
  return (
    <form class="assign" onSubmit={submit} aria-label={t.spools.assignOf(spool.short_id)}>
      <div class="field">
        <label for={`${id}-printer`}>{a.printer}</label>
        <select
          id={`${id}-printer`}
          value={printerId.value}
          onChange={(e) => {
            printerId.value = (e.currentTarget as HTMLSelectElement).value;
          }}
        >
          <Options items={printers} />
        </select>
      </div>
      {bambu && (
        <div class="field">
          <label for={`${id}-kind`}>{a.kind}</label>
          <select
            id={`${id}-kind`}
            value={effectiveKind}
            onChange={(e) => {
              kind.value = (e.currentTarget as HTMLSelectElement).value as 'ams' | 'external';
            }}
          >
            <option value="ams">{a.ams}</option>
            <option value="external">{a.external}</option>
          </select>
        </div>
      )}
      {effectiveKind === 'tool' && (
        <div class="field">
          <label for={`${id}-tool`}>{a.toolNumber}</label>
          <input id={`${id}-tool`} name="tool" type="number" min={0} max={15} value={spool.slot?.kind === 'tool' ? spool.slot.tool : 0} />
        </div>
      )}
      {effectiveKind === 'ams' && (
        <>
          <div class="field">
            <label for={`${id}-unit`}>{a.amsUnit}</label>
            <input id={`${id}-unit`} name="unit" type="number" min={1} max={4} value={spool.slot?.kind === 'ams' ? spool.slot.unit + 1 : 1} />
          </div>
          <div class="field">
            <label for={`${id}-tray`}>{a.amsTray}</label>
            <input id={`${id}-tray`} name="tray" type="number" min={1} max={4} value={spool.slot?.kind === 'ams' ? spool.slot.tray + 1 : 1} />
          </div>
        </>
      )}
      <ProblemAlert message={problem.value} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={printers.length === 0}>
          {a.load}
        </button>
        {spool.printer_id !== null && (
          <button type="button" onClick={() => void unload()}>
            {a.unload}
          </button>
        )}
      </div>
    </form>
  );
}
