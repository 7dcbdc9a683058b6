/**
 * An image the API serves behind the session (a plain <img src> sends no Authorization header):
 * fetched through api() and shown from a blob: URL, released when the image goes.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

export function BlobImage({ load, alt, className, size }: { load: () => Promise<Blob>; alt: string; className?: string; size?: number }) {
  const src = useSignal<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let current = true;
    load().then(
      (blob) => {
        if (!current) return;
        url = URL.createObjectURL(blob);
        src.value = url;
      },
      () => {
        // No picture: nothing to show.
      },
    );
    return () => {
      current = false;
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [load]);
  return src.value === null ? null : <img class={className} src={src.value} alt={alt} width={size} height={size} />;
}
