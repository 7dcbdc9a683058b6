/**
 * The box's name (setting box.name): the header shows it and the browser tab's title carries it, so
 * a farm with several boxes tells their tabs apart. Read from /api/system/info whenever the live
 * feed (re)connects, and set by the settings page after a change.
 */
import { effect, signal } from '@preact/signals';
import { api } from '../api/client';
import { live } from '../app-live';
import { t } from '../texts';

export const boxName = signal<string | null>(null);

effect(() => {
  const name = boxName.value;
  document.title = name === null || name === t.appName ? t.appName : t.shell.title(name);
});

live.onOpen(() => {
  api('GET /api/system/info').then(
    (info) => {
      boxName.value = info.box.name;
    },
    // The title keeps the product's name; nothing else depends on it.
    () => {},
  );
});
