import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long the rest of an unread body may take to arrive before the connection is cut. */
const DRAIN_TIMEOUT_MS = 10_000;
/**
 * The kernel answered before the request body was read to its end (a 413, or a 415/401 that never
 * looked at it). Node only discards the rest of a body nobody started reading, so a body the kernel
 * began to read would otherwise sit unread and stall the keep-alive connection. A declared body beyond
 * `limit` gets `Connection: close` (node ends the socket after the answer); anything else is read and
 * dropped once the answer is out, and the socket is cut if more than `limit` bytes or DRAIN_TIMEOUT_MS
 * pass.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (req.complete || req.destroyed) return;
  // Neither a length nor a transfer coding: a request without a body (RFC 9112 §6.3). A reply made in
  // the request's own turn comes before node's parser has marked even such a request complete.
  const declaredLength = req.headers['content-length'];
  if (declaredLength === undefined && req.headers['transfer-encoding'] === undefined) return;
  const declared = Number(declaredLength);
  if (Number.isFinite(declared) && declared > limit) {
    if (!res.headersSent) res.setHeader('connection', 'close');
    return;
  }
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    let seen = 0;
    const cut = () => req.socket?.destroy();
    const timer = setTimeout(cut, DRAIN_TIMEOUT_MS);
    timer.unref();
    req.removeAllListeners('data');
    req.on('data', (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > limit) {
        clearTimeout(timer);
        cut();
      }
    });
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
    req.resume();
  });
}
