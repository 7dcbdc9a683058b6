/**
 * The slicer service's status for the header's indicator (spec section 3): read when the live feed
 * (re)connects and followed through `slicer.status`. Null while unknown or when the dashboard has
 * no slicer-service feature; the indicator shows only while the integration is configured.
 */
import { signal } from '@preact/signals';
import { api, type Ok } from '../api/client';
import { live } from '../app-live';

export type SlicerStatus = Ok<'GET /api/slicer/remote/status'>;

export const slicerStatus = signal<SlicerStatus | null>(null);

export function refreshSlicerStatus(force = false): Promise<void> {
  return api('GET /api/slicer/remote/status', { query: force ? { force: '1' } : {} }).then(
    (status) => {
      slicerStatus.value = status;
    },
    () => {
      slicerStatus.value = null;
    },
  );
}

live.onOpen(() => void refreshSlicerStatus());
live.on('slicer.status', (payload) => {
  slicerStatus.value = { ...slicerStatus.value, ...(payload as SlicerStatus) };
});
