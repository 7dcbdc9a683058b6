/** One group of buttons' call state: busy while a call runs, and the refusal of the last one. */
import { useSignal, type Signal } from '@preact/signals';
import { reason } from '../api/client';
import { t } from '../texts';

export interface Runner {
  busy: Signal<boolean>;
  failure: Signal<string | null>;
  run(call: () => Promise<unknown>): Promise<void>;
}

export function useRunner(): Runner {
  const busy = useSignal(false);
  const failure = useSignal<string | null>(null);
  return {
    busy,
    failure,
    async run(call) {
      busy.value = true;
      failure.value = null;
      try {
        await call();
      } catch (err) {
        failure.value = t.printer.actionFailed(reason(err, t.errors.network));
      } finally {
        busy.value = false;
      }
    },
  };
}
