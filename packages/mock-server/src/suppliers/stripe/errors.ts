import type { StripeErrorBody } from './state.ts';

/**
 * A Stripe error answer. `stored` says whether Stripe would keep it as the idempotent result: errors from
 * an endpoint that started executing are kept and replayed (card declines, wrong state), errors from
 * validation or auth are not (the key stays free for a corrected retry).
 */
export class StripeHttpError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;
  readonly stored: boolean;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    body: StripeErrorBody,
    opts: { stored?: boolean; headers?: Record<string, string> } = {},
  ) {
    super(body.message);
    this.status = status;
    this.body = body;
    this.stored = opts.stored ?? false;
    this.headers = opts.headers ?? {};
  }
}

const DOCS = 'https://stripe.com/docs/error-codes';

export function invalidRequest(
  code: string,
  message: string,
  param?: string,
  opts: { status?: number; stored?: boolean } = {},
): StripeHttpError {
  return new StripeHttpError(
    opts.status ?? 400,
    {
      type: 'invalid_request_error',
      code,
      doc_url: `${DOCS}/${code.replaceAll('_', '-')}`,
      message,
      ...(param === undefined ? {} : { param }),
    },
    { stored: opts.stored ?? false },
  );
}

export const parameterUnknown = (param: string): StripeHttpError =>
  invalidRequest('parameter_unknown', `Received unknown parameter: ${param}`, param);

export const parameterMissing = (param: string): StripeHttpError =>
  invalidRequest('parameter_missing', `Missing required param: ${param}.`, param);

export const resourceMissing = (kind: string, id: string, param: string): StripeHttpError =>
  invalidRequest('resource_missing', `No such ${kind}: '${id}'`, param, { status: 404 });

/** Wrong PaymentIntent status for the operation: the endpoint ran, so the answer is stored. */
export const unexpectedState = (message: string): StripeHttpError =>
  invalidRequest('payment_intent_unexpected_state', message, undefined, { stored: true });

export function apiError(): StripeHttpError {
  return new StripeHttpError(
    500,
    {
      type: 'api_error',
      message:
        'An unknown error occurred while processing this request. Please try again later or contact support@stripe.com.',
    },
    { headers: { 'Stripe-Should-Retry': 'true' } },
  );
}
