import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { isSensitiveField, type LogRecord, REDACTED, redact, redactUrl } from '../src/index.ts';
import { BASE, testClient, useMsw } from './helpers.ts';

const server = useMsw();

describe('redaction', () => {
  it('redacts secrets and personal data by field name, deeply', () => {
    const input = {
      access_token: 'eyJ',
      token: 'tok_sandbox_ok',
      password: 'hunter2',
      contact: { email: 'a@b.c', phone: '+44 20' },
      passengers: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          date_of_birth: '1815-12-10',
          passport_number: 'P123',
          doc_number: 'D9',
        },
      ],
      number: 'X1234567',
      flight_number: 'EK2',
      seat_number: '12A',
      pnr: 'ABC123',
    };
    expect(redact(input)).toEqual({
      access_token: REDACTED,
      token: REDACTED,
      password: REDACTED,
      contact: { email: REDACTED, phone: REDACTED },
      passengers: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          date_of_birth: REDACTED,
          passport_number: REDACTED,
          doc_number: REDACTED,
        },
      ],
      number: REDACTED,
      flight_number: 'EK2',
      seat_number: '12A',
      pnr: 'ABC123',
    });
    expect(isSensitiveField('notificationEmail')).toBe(true);
    expect(isSensitiveField('docNumber')).toBe(true);
  });

  it('redacts sensitive query parameters', () => {
    expect(redactUrl('http://x/api/v1/auth/verify-email?access_token=abc&type=signup')).toBe(
      '/api/v1/auth/verify-email?access_token=[redacted]&type=signup',
    );
  });

  it('logs method, path, status, latency, request id and a redacted body for every attempt', async () => {
    server.use(
      http.post(`${BASE}/api/v1/auth/login`, () =>
        HttpResponse.json({ access_token: 'secret-jwt' }, { headers: { 'X-Request-Id': 'req-login' } }),
      ),
    );
    const records: LogRecord[] = [];
    let clock = 1000;
    const { client } = testClient({
      logger: { debug: (_message, record) => records.push(record) },
      now: () => (clock += 25),
    });
    await client.auth.login({ email: 'ada@example.com', password: 'hunter2' });
    expect(records).toEqual([
      {
        method: 'POST',
        path: '/api/v1/auth/login',
        status: 200,
        latencyMs: 25,
        requestId: 'req-login',
        attempt: 1,
        idempotencyKey: undefined,
        body: { email: REDACTED, password: REDACTED },
        error: undefined,
      },
    ]);
    expect(JSON.stringify(records)).not.toMatch(/ada@example|hunter2|secret-jwt/);
  });
});
