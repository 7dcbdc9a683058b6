/**
 * An upload with its progress: fetch() cannot tell how much of a request body has gone out, so a
 * large file (an update bundle) goes through XMLHttpRequest, which can. The session's token and
 * the API's error shape are the same as for `api()`.
 */
import { ApiError } from './client';
import { session } from './session';

/** Sends `file` as the raw body of a POST to `url`; resolves with the JSON answer, rejects with ApiError or a TypeError (network). */
export function uploadFile(url: string, file: Blob, onProgress: (sent: number, total: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('content-type', 'application/octet-stream');
    const token = session.value?.token;
    if (token !== undefined) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onerror = () => reject(new TypeError('network error'));
    request.onload = () => {
      let body: { error?: string; code?: string } | null = null;
      try {
        body = request.responseText === '' ? null : (JSON.parse(request.responseText) as { error?: string; code?: string });
      } catch {
        // Not JSON: the status alone says what happened.
      }
      if (request.status >= 200 && request.status < 300) resolve(body);
      else reject(new ApiError(request.status, body?.code ?? 'ERR_UNKNOWN', body?.error ?? `HTTP ${request.status}`));
    };
    request.send(file);
  });
}
