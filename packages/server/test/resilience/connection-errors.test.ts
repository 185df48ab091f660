/**
 * Which errors mean "the database is unreachable" (503 database_unavailable with Retry-After) and which
 * stay bugs (500): a socket code counts only when the database driver raised it, so a supplier's or the
 * mail server's ECONNRESET is never reported as a database outage.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/kernel/errors.ts';
import { knownError } from '../../src/kernel/middleware/error-handler.ts';
import {
  DatabaseUnavailableError,
  isConnectionError,
  markDatabaseError,
} from '../../src/storage/connection-errors.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('connection-class errors', () => {
  it.each([
    ['57P01 admin_shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash_shutdown', withCode('57P02')],
    ['57P03 cannot_connect_now', withCode('57P03', 'the database system is starting up')],
    ['08006 connection_failure', withCode('08006')],
    ['08P01 protocol_violation', withCode('08P01')],
    ['pg: Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['pg-pool: connect timeout', new Error('timeout exceeded when trying to connect')],
    ['ECONNREFUSED from the driver', markDatabaseError(withCode('ECONNREFUSED'))],
    ['ECONNRESET from the driver', markDatabaseError(withCode('ECONNRESET'))],
    [
      'an AggregateError of refused addresses from the driver',
      markDatabaseError(Object.assign(new AggregateError([withCode('ECONNREFUSED')]), { code: undefined })),
    ],
    ['the fail-fast error while the link is down', new DatabaseUnavailableError('down', 3)],
  ])('%s is a database outage', (_, err) => {
    expect(isConnectionError(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value')],
    ['a syntax error', withCode('42601')],
    ['ECONNRESET from a supplier or the mail server', withCode('ECONNRESET')],
    ['ECONNREFUSED not raised by the driver', withCode('ECONNREFUSED')],
    ['a plain error', new Error('boom')],
    ['a non-error', 'Connection terminated'],
  ])('%s is not', (_, err) => {
    expect(isConnectionError(err)).toBe(false);
  });
});

describe('the error handler', () => {
  it('answers a database outage 503 database_unavailable with Retry-After from the reconnect schedule', () => {
    const e = knownError(new DatabaseUnavailableError('down', 2.2));
    expect(e).toBeInstanceOf(HttpError);
    expect(e).toMatchObject({ status: 503, code: 'database_unavailable', headers: { 'retry-after': '3' } });
    expect(knownError(withCode('57P01'))).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
  });

  it('leaves anything else to the 500 path', () => {
    expect(knownError(withCode('ECONNRESET'))).toBeUndefined();
    expect(knownError(new Error('boom'))).toBeUndefined();
  });
});
