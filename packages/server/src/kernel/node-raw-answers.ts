import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_VERSION } from '@travel/contract';
import type { ErrorCode } from './errors.ts';
import { mintRequestId } from './middleware/request-id.ts';

// Answers the node adapter gives without the kernel: what node's parser refused, CONNECT and the methods
// a web `Request` refuses, and effectful requests while the server drains.

/** Methods a web `Request` refuses: a kernel without `dispatch` cannot see them; they are answered 405 here. */
export const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** CONNECT targets a host, not one of our paths: the Allow of a 405 for it lists what any path may answer. */
export const ALL_METHODS = 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT';
/** A whole HTTP/1.1 response with our JSON error body, for the paths that never reach the kernel. */
export function rawErrorResponse(status: number, reason: string, code: ErrorCode, detail: string): string {
  const body = JSON.stringify({ detail, code, request_id: mintRequestId() });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    ...(status === 405 ? [`Allow: ${ALL_METHODS}`] : []),
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    `API-Version: ${API_VERSION}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** What node's parser refused, answered as the contract answers everything else (node would send no body). */
export function clientErrorResponse(code: string | undefined): string {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return rawErrorResponse(
        431,
        'Request Header Fields Too Large',
        'request_header_fields_too_large',
        'The request headers exceed the size limit.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return rawErrorResponse(
        408,
        'Request Timeout',
        'request_timeout',
        'The request took too long to arrive.',
      );
    default:
      return rawErrorResponse(400, 'Bad Request', 'malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that arrives while the server drains for shutdown (on a keep-alive socket opened before):
 * its answer closes the socket (`Connection: close`), and an effectful one is refused before any
 * supplier or payment call, 503 `server_draining` with Retry-After, since it could not be finished within
 * the grace. Reads are still answered. Returns whether the request was answered here.
 */
export function draining(req: IncomingMessage, res: ServerResponse): boolean {
  res.setHeader('connection', 'close');
  if (READS.has(req.method ?? 'GET')) return false;
  req.resume();
  res.writeHead(503, {
    'content-type': 'application/json',
    'retry-after': '5',
    'x-content-type-options': 'nosniff',
  });
  res.end(
    JSON.stringify({
      detail:
        'The server is shutting down and starts no new operation; retry shortly with the same Idempotency-Key.',
      code: 'server_draining',
      request_id: mintRequestId(),
    }),
  );
  return true;
}
