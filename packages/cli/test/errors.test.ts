/** Every error a command can throw maps to one exit code and one line with the code and request id. */
import {
  AuthenticationError,
  BookingPendingError,
  ConflictError,
  createApiError,
  NotFoundError,
  PermissionError,
  ServerError,
  TravelApiError,
} from '@travel/sdk';
import { describe, expect, it } from 'vitest';
import {
  CliError,
  exitCodeFor,
  formatError,
  redactTokens,
  UsageError,
  verboseDetail,
} from '../src/errors.ts';
import { ExitCode } from '../src/exit-codes.ts';
import { colorEnabled, isInteractive } from '../src/io.ts';

const api = (status: number, code: string) =>
  createApiError({ status, body: { detail: `d ${code}`, code, request_id: 'req_1' } });

describe('exitCodeFor', () => {
  it.each([
    ['usage', new UsageError('x'), ExitCode.usage],
    ['cli error keeps its code', new CliError('x', ExitCode.supplierPending), ExitCode.supplierPending],
    ['401', api(401, 'invalid_token'), ExitCode.authentication],
    ['403', api(403, 'insufficient_role'), ExitCode.authentication],
    ['404', api(404, 'booking_not_found'), ExitCode.notFound],
    ['410 expired search', api(410, 'search_expired'), ExitCode.notFound],
    ['offer_not_found', api(404, 'offer_not_found'), ExitCode.notFound],
    ['409', api(409, 'idempotency_in_progress'), ExitCode.conflict],
    ['refused transition', api(400, 'already_captured'), ExitCode.conflict],
    ['not cancellable', api(400, 'not_cancellable'), ExitCode.conflict],
    ['502 pending', api(502, 'booking_pending'), ExitCode.supplierPending],
    ['declined', api(400, 'payment_declined'), ExitCode.failed],
    ['500', api(500, 'internal_error'), ExitCode.failed],
    ['plain error', new Error('boom'), ExitCode.failed],
  ])('%s', (_name, error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });

  it('classes are what the SDK says they are', () => {
    expect(api(401, 'invalid_token')).toBeInstanceOf(AuthenticationError);
    expect(api(403, 'x')).toBeInstanceOf(PermissionError);
    expect(api(404, 'x')).toBeInstanceOf(NotFoundError);
    expect(api(409, 'x')).toBeInstanceOf(ConflictError);
    expect(api(502, 'booking_pending')).toBeInstanceOf(BookingPendingError);
    expect(api(500, 'x')).toBeInstanceOf(ServerError);
  });
});

describe('formatError', () => {
  it('is one line with what happened, the code and the request id', () => {
    const line = formatError(api(400, 'payment_declined'));
    expect(line).toBe('error: d payment_declined  code=payment_declined  status=400  request_id=req_1');
    expect(line).not.toContain('\n');
  });
  it('lists validation issues by location', () => {
    const error = createApiError({
      status: 422,
      body: { detail: [{ loc: ['body', 'email'], msg: 'missing', type: 'missing' }] },
    });
    expect(formatError(error)).toContain('body.email: missing');
  });
  it('usage errors say usage', () => {
    expect(formatError(new UsageError('missing --from'))).toBe('usage: missing --from');
  });
  it('verbose detail redacts secrets in the body', () => {
    const error = new TravelApiError({
      status: 400,
      code: 'x',
      detail: 'x',
      body: { token: 'tok_secret', pnr: 'ABC123' },
    });
    expect(verboseDetail(error)).toContain('[redacted]');
    expect(verboseDetail(error)).not.toContain('tok_secret');
  });
  it('bearer tokens never reach the terminal', () => {
    expect(redactTokens('authorization: Bearer eyJhbGciOi.abc.def')).toBe('authorization: Bearer [redacted]');
  });
});

describe('terminal detection', () => {
  it.each([
    ['tty', {}, true, true],
    ['pipe', {}, false, false],
    ['NO_COLOR', { NO_COLOR: '1' }, true, false],
    ['TERM=dumb', { TERM: 'dumb' }, true, false],
    ['FORCE_COLOR on a pipe', { FORCE_COLOR: '1' }, false, true],
  ])('colour: %s', (_name, env, tty, expected) => {
    expect(colorEnabled(env as NodeJS.ProcessEnv, tty)).toBe(expected);
  });
  it.each([
    ['both terminals', {}, true, true, true],
    ['stdin piped', {}, false, true, false],
    ['stdout piped', {}, true, false, false],
    ['CI', { CI: 'true' }, true, true, false],
  ])('interactive: %s', (_name, env, stdin, stdout, expected) => {
    expect(isInteractive(env as NodeJS.ProcessEnv, stdin, stdout)).toBe(expected);
  });
});
