/**
 * Shows a route's page: at once when it is in the main bundle, after its chunk has loaded when it
 * is not (a chunk loads once; a failed load is tried again when the page is opened again).
 */
import { signal, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { PageComponent, PageRoute, RouteParams } from './routes';
import { t } from './texts';

const loaded = signal(new Map<PageRoute, PageComponent>());

export function RoutePage({ route, params, onShown }: { route: PageRoute; params: RouteParams; onShown: () => void }) {
  const page = 'page' in route ? route.page : (loaded.value.get(route) ?? null);
  const failed = useSignal(false);
  useEffect(() => {
    if (page !== null) {
      onShown();
      return;
    }
    if (!('load' in route)) return;
    let current = true;
    failed.value = false;
    route.load().then(
      (component) => {
        loaded.value = new Map(loaded.value).set(route, component);
      },
      () => {
        if (current) failed.value = true;
      },
    );
    return () => {
      current = false;
    };
  }, [route, page]);
  if (page !== null) {
    const Page = page;
    return <Page params={params} />;
  }
  return failed.value ? (
    <p class="error-text" role="alert">
      {t.errors.pageLoad}
    </p>
  ) : (
    <p>{t.loading}</p>
  );
}
