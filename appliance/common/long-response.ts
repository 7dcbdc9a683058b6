/**
 * Responses that outlive their request by more than a few seconds (event streams, replies that
 * wait for a job). uWebSockets.js arms a 10-second idle timer whenever it resumes reading a
 * request body (hyper-express pauses and resumes it while a multipart upload is parsed), and
 * writing the response does not re-arm it: ten seconds after the upload the connection is cut,
 * mid-stream. A paused request has no such timer, so the request is paused once its body has
 * been read, and resumed just before the response ends (a paused socket would never read the
 * next request of a keep-alive connection).
 */
import type { Request, Response } from 'hyper-express';

/** Call once the body has been read and the response will take a while. */
export function holdOpen(request: Request): void {
  request.pause();
}

/** Call before the last write of a held response; hyper-express also resumes on its first write. */
export function releaseHold(request: Request, response: Response): void {
  if (!response.completed) request.resume();
}
