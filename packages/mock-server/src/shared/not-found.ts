import { randomUUID } from 'node:crypto';

/**
 * Each supplier's own answer for a route it does not have, used by the standalone server when no handler
 * matched, so a wrong path in an adapter fails the way it would against the real supplier.
 */

export function amadeusNotFound(_request: Request): Response {
  return Response.json(
    {
      errors: [
        {
          status: 404,
          code: 38196,
          title: 'Resource not found',
          detail: 'The targeted resource does not exist',
        },
      ],
    },
    { status: 404, headers: { 'content-type': 'application/vnd.amadeus+json' } },
  );
}

export function duffelNotFound(_request: Request): Response {
  return Response.json(
    {
      meta: { status: 404, request_id: randomUUID().replaceAll('-', '').slice(0, 20) },
      errors: [
        {
          type: 'invalid_request_error',
          title: 'Resource not found',
          message: 'The resource you are trying to access does not exist.',
          documentation_url: 'https://duffel.com/docs/api/overview/response-handling',
          code: 'not_found',
        },
      ],
    },
    { status: 404 },
  );
}

export function hotelbedsNotFound(request: Request): Response {
  return Response.json(
    {
      auditData: { timestamp: new Date().toISOString(), environment: '[int]' },
      error: {
        code: 'INVALID_REQUEST',
        message: `Resource not found: ${new URL(request.url).pathname}`,
      },
    },
    { status: 404 },
  );
}

export function mystiflyNotFound(request: Request): Response {
  return Response.json(
    {
      Success: false,
      Data: null,
      Message: `The requested resource ${new URL(request.url).pathname} does not exist.`,
      Errors: [{ Code: 'ERNF01', Message: 'Resource not found.' }],
    },
    { status: 404 },
  );
}
