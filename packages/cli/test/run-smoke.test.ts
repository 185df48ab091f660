/** smoke: the step table, exit status, and a cleanup that undoes what a failed run created. */
import { TravelApiError } from '@travel/sdk';
import { describe, expect, it, vi } from 'vitest';
import { runSmoke, type SmokeOptions } from '../src/commands/smoke.ts';
import { CliError } from '../src/errors.ts';
import { booking, offer } from './helpers/data.ts';
import { fakeWorld } from './helpers/fakes.ts';

const options: SmokeOptions = {
  origin: 'LHR',
  destination: 'DXB',
  daysAhead: 30,
  tag: 'gh-1-1',
  timeoutSeconds: 30,
  companyCode: undefined,
  userCode: undefined,
};

function sdk(overrides: { capture?: () => Promise<unknown>; issue?: () => Promise<unknown> } = {}) {
  return {
    auth: {
      login: vi.fn(async () => ({})),
      me: vi.fn(async () => ({ company_code: 'ACME', user_code: 'agent01' })),
    },
    flights: {
      search: vi.fn(async () => ({ offers: async () => [offer('off_b', 52_000), offer('off_a', 41_000)] })),
    },
    bookings: {
      revalidate: vi.fn(async () => ({ available: true, offer: offer('off_a', 41_000) })),
      create: vi.fn(async () => ({ outcome: 'confirmed', booking_id: 42, booking: booking('confirmed') })),
      cancel: vi.fn(async () => ({})),
    },
    payments: {
      authorize: vi.fn(async () => ({ data: {} })),
      capture: vi.fn(overrides.capture ?? (async () => ({ data: {} }))),
      void: vi.fn(async () => ({ data: {} })),
      refund: vi.fn(async () => ({ data: {} })),
    },
    tickets: {
      issue: vi.fn(overrides.issue ?? (async () => ({ data: {} }))),
      action: vi.fn(async (_id: number, _a: string, q?: { confirm?: boolean }) => ({
        permitted: true,
        determination: 'void_window',
        booking_status: q?.confirm ? 'cancelled' : 'ticketed',
      })),
    },
  };
}

describe('runSmoke', () => {
  it('every step passes: a step table, tagged booking, exit 0', async () => {
    const fake = sdk();
    const { ctx, io } = fakeWorld({
      sdk: fake as never,
      env: { TRAVEL_EMAIL: 'a@b.c', TRAVEL_PASSWORD: 'pw' },
      globals: { json: true },
    });
    await runSmoke(options, ctx);
    const doc = JSON.parse(io.stdout.join(''));
    expect(doc.ok).toBe(true);
    expect(doc.steps.map((s: { step: string; result: string }) => `${s.step}:${s.result}`)).toEqual([
      'login:ok',
      'search:ok',
      'revalidate:ok',
      'book:ok',
      'authorize:ok',
      'capture:ok',
      'ticket:ok',
      'void quote:ok',
      'void:ok',
      'cleanup: refund payment:ok',
      'cleanup: cancel booking:ok',
    ]);
    // The void already cancelled the booking (as the real server does): refund the money, no cancel call.
    expect(fake.payments.refund).toHaveBeenCalledWith(42, { reason: 'smoke cleanup' });
    expect(fake.bookings.cancel).not.toHaveBeenCalled();
    expect(doc.steps.at(-1)).toMatchObject({ detail: 'already cancelled' });
    expect(fake.bookings.create.mock.calls[0]).toMatchObject([
      { offer_id: 'off_a', client_ref: 'smoke:gh-1-1' },
      { idempotencyKey: 'smoke-gh-1-1-off_a' },
    ]);
    expect(fake.payments.authorize).toHaveBeenCalledWith(42, {
      token: 'tok_sandbox_ok',
      currency: 'GBP',
      amount_minor: 45_000,
    });
  });

  it('a failed step skips the rest, cleans up what exists, and fails the run', async () => {
    const fake = sdk({
      capture: async () => {
        throw new TravelApiError({ status: 400, code: 'capture_failed', detail: 'no', requestId: 'req_9' });
      },
    });
    const { ctx, io } = fakeWorld({ sdk: fake as never });
    const error = await runSmoke(options, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toContain('capture');
    const table = io.stdout.join('\n');
    expect(table).toMatch(/capture\s+FAILED\s+\d+\s+no\s+code=capture_failed\s+request_id=req_9/);
    expect(table).toMatch(/ticket\s+skipped/);
    expect(fake.payments.void).toHaveBeenCalledWith(42);
    expect(fake.bookings.cancel).toHaveBeenCalledWith(42);
    expect(fake.tickets.action).not.toHaveBeenCalled();
  });

  it('captured but not ticketed: only cancels (the server refunds), never refunds a live booking first', async () => {
    const fake = sdk({
      issue: async () => {
        throw new TravelApiError({ status: 502, code: 'ticketing_failed', detail: 'no', requestId: 'req_7' });
      },
    });
    const { ctx, io } = fakeWorld({ sdk: fake as never, globals: { json: true } });
    await expect(runSmoke(options, ctx)).rejects.toBeInstanceOf(CliError);
    const doc = JSON.parse(io.stdout.join(''));
    expect(
      doc.steps
        .filter((s: { step: string }) => s.step.startsWith('cleanup'))
        .map((s: { step: string }) => s.step),
    ).toEqual(['cleanup: cancel booking']);
    expect(fake.payments.refund).not.toHaveBeenCalled();
    expect(fake.bookings.cancel).toHaveBeenCalledWith(42);
  });
});
