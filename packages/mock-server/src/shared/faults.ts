import { HttpResponse } from 'msw';
import { sleep } from './latency.ts';

/**
 * Fault injection shared by the emulators, so "supplier timeout", "5xx" and "connection reset" mean the
 * same thing everywhere.
 */

/**
 * A connection reset. In-process (`setupServer`) this is `Response.error()`, which makes `fetch` reject with
 * a network error; the standalone node adapter sees the same error response and destroys the socket.
 */
export function connectionReset(): HttpResponse<never> {
  return HttpResponse.error() as HttpResponse<never>;
}

/** True for the response `connectionReset()` produces. */
export function isConnectionReset(response: Response): boolean {
  return response.type === 'error';
}

/**
 * A supplier that never answers within the caller's deadline. Waits `ms` (default 30 s, longer than any
 * adapter timeout) or until the request is aborted, then resets the connection.
 */
export async function hang(request: Request, ms = 30_000): Promise<HttpResponse<never>> {
  await sleep(ms, request.signal).catch(() => undefined);
  return connectionReset();
}
