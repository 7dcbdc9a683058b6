/** The app's one live feed, tied to the session: it runs while someone is logged in. */
import { computed, effect } from '@preact/signals';
import { LiveConnection } from './api/live';
import { session, toLogin } from './api/session';

export const live = new LiveConnection({
  token: () => session.value?.token ?? null,
  // Only if the refused token is still the session's (a new login may have replaced it).
  unauthorized: (refused) => {
    if (session.value?.token === refused) toLogin('expired');
  },
});

/** Only a new token reconnects; a refreshed role keeps the connection. */
const token = computed(() => session.value?.token ?? null);

effect(() => {
  if (token.value !== null) {
    live.stop();
    live.start();
  } else live.stop();
});
