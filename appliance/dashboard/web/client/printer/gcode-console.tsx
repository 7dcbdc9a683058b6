/**
 * The G-code console, for printers whose driver has one (`capabilities.gcode_console`: Marlin).
 * A command goes through `POST /api/printers/{id}/command`, whose answer is what the printer wrote
 * up to its `ok`; the log keeps the last lines of this visit, newest at the bottom, and is a live
 * region so a screen reader reads each reply as it arrives.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { api, reason } from '../api/client';
import { t } from '../texts';
import type { PrinterPageStore } from './store';

const KEEP_LINES = 200;

interface LogLine {
  n: number;
  kind: 'sent' | 'reply' | 'error';
  text: string;
}

export function GcodeConsole({ store }: { store: PrinterPageStore }) {
  const command = useSignal('');
  const lines = useSignal<LogLine[]>([]);
  const busy = useSignal(false);
  const counter = useRef(0);
  const log = useRef<HTMLOListElement>(null);

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [lines.value]);

  const append = (kind: LogLine['kind'], texts: string[]) => {
    const added = texts.map((text) => ({ n: counter.current++, kind, text }));
    lines.value = [...lines.value, ...added].slice(-KEEP_LINES);
  };

  const send = async (event: Event) => {
    event.preventDefault();
    const text = command.value.trim();
    if (text === '') return;
    busy.value = true;
    append('sent', [text]);
    try {
      const answer = await api('POST /api/printers/{id}/command', { path: { id: store.id }, body: { command: text } });
      append('reply', answer.lines.length > 0 ? answer.lines : [t.printerPage.noReply]);
      command.value = '';
    } catch (err) {
      append('error', [t.printer.actionFailed(reason(err, t.errors.network))]);
    } finally {
      busy.value = false;
    }
  };

  return (
    <section class="panel console" aria-labelledby="console-title">
      <h2 id="console-title">{t.printerPage.console}</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must be reachable by keyboard to be scrolled */}
      <ol class="console-log" ref={log} aria-live="polite" aria-label={t.printerPage.consoleLog} tabIndex={0}>
        {lines.value.length === 0 && <li class="console-empty">{t.printerPage.consoleEmpty}</li>}
        {lines.value.map((line) => (
          <li key={line.n} class={`console-${line.kind}`}>
            {line.kind === 'sent' ? `> ${line.text}` : line.text}
          </li>
        ))}
      </ol>
      <form class="console-form" onSubmit={(e) => void send(e)}>
        <label for="console-command">{t.printerPage.command}</label>
        <input
          id="console-command"
          type="text"
          autocomplete="off"
          spellcheck={false}
          value={command.value}
          onInput={(e) => (command.value = (e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" class="primary" disabled={busy.value}>
          {t.printerPage.send}
        </button>
      </form>
    </section>
  );
}
