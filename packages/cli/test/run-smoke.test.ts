/**
 * smoke: the step table, exit status, and a cleanup that undoes what a failed run created (run functions
 * with fakes); then `smoke sweep --tag` as the built binary against the REAL server of the global setup,
 * on orphans an interrupted smoke run leaves behind.
 */
import { createTravelClient, type FlightOffer, TravelApiError, type TravelClient } from '@travel/sdk';
import { describe, expect, inject, it, vi } from 'vitest';
import { runSmoke, type SmokeOptions } from '../src/commands/smoke.ts';
import { CliError } from '../src/errors.ts';
import { smokeRef } from '../src/smoke-steps.ts';
import { freshConfigDir, runCli } from './helpers/cli.ts';
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
        // As the real server answers: a confirmed void gives the captured money back in the same call.
        booking_status: q?.confirm ? 'refunded' : 'ticketed',
        payment: q?.confirm
          ? { action: 'refund', amount_minor: 45_000, currency: 'GBP', status: 'succeeded' }
          : null,
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
    // The void already cancelled the booking and gave the money back (as the real server does): no refund
    // call and no cancel call; the step table says where the money went.
    expect(fake.payments.refund).not.toHaveBeenCalled();
    expect(fake.bookings.cancel).not.toHaveBeenCalled();
    expect(doc.steps.at(-2)).toMatchObject({ detail: 'refund 45000 GBP succeeded (by the void)' });
    expect(doc.steps.at(-1)).toMatchObject({ detail: 'already refunded' });
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

const url = inject('serverUrl');
const agent = inject('agent');

/**
 * What a `travel smoke` run killed after its `step` leaves behind: the same calls, the same client_ref, and
 * then nothing (no cleanup ran).
 */
async function orphan(
  travel: TravelClient,
  offer: FlightOffer,
  tag: string,
  step: 'book' | 'authorize' | 'ticket',
): Promise<number> {
  const checked = await travel.bookings.revalidate({
    offer_id: offer.offer_id,
    currency: offer.price.currency,
  });
  const result = await travel.bookings.create({
    offer_id: checked.offer.offer_id,
    currency: checked.offer.price.currency,
    passengers: [
      { type: 'ADT', first_name: 'Smoke', last_name: 'Test', gender: 'F', date_of_birth: '1990-01-01' },
    ],
    contact: { email: 'smoke@example.org', phone: '+447700900123' },
    payment_mode: 'PNR_FIRST',
    client_ref: smokeRef(tag),
  });
  expect(result.outcome).toBe('confirmed');
  const id = result.booking_id;
  if (step === 'book') return id;
  const pricing = result.booking?.pricing;
  await travel.payments.authorize(id, {
    token: 'tok_sandbox_ok',
    currency: pricing?.currency ?? checked.offer.price.currency,
    amount_minor: pricing?.total_minor ?? checked.offer.price.total_minor,
  });
  if (step === 'authorize') return id;
  await travel.payments.capture(id);
  await travel.tickets.issue(id, { capture: false });
  return id;
}

describe.skipIf(!url)('smoke sweep --tag against the real server (process)', () => {
  it('cleans up the orphans of one run only, reports each action, and a second sweep finds nothing left to do', async () => {
    const who = agent as NonNullable<typeof agent>;
    const travel = createTravelClient({ baseUrl: url });
    await travel.auth.login({ email: who.email, password: who.password });
    const date = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const search = await travel.flights.search({
      companyCode: who.companyCode,
      userCode: who.userCode,
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: date }],
    });
    const offers = (await search.offers({ signal: AbortSignal.timeout(30_000) })).sort(
      (a, b) => a.price.total_minor - b.price.total_minor,
    );
    const cheapest = offers[0];
    expect(cheapest, 'the sandbox returned no LHR-DXB offers').toBeDefined();
    const offer = cheapest as FlightOffer;

    const tag = `sweep-${Date.now()}`;
    const booked = await orphan(travel, offer, tag, 'book'); // killed after "book"
    const authorized = await orphan(travel, offer, tag, 'authorize'); // killed after "authorize"
    const ticketed = await orphan(travel, offer, tag, 'ticket'); // killed after "ticket"
    const otherRun = await orphan(travel, offer, `${tag}-other`, 'book'); // another run's: not ours to touch
    expect((await travel.bookings.get(authorized)).status).toBe('payment_pending');
    expect((await travel.bookings.get(ticketed)).status).toBe('ticketed');

    const env = {
      TRAVEL_BASE_URL: url,
      TRAVEL_EMAIL: who.email,
      TRAVEL_PASSWORD: who.password,
      NO_COLOR: '1',
    };
    const sweep = await runCli(['smoke', 'sweep', '--tag', tag, '--json'], {
      env,
      configDir: freshConfigDir(),
    });
    expect(sweep.code, sweep.stderr).toBe(0);
    const doc = JSON.parse(sweep.stdout) as {
      tag: string;
      found: number;
      actions: { step: string; result: string; detail: string }[];
    };
    expect(doc.tag).toBe(tag);
    // `sweep-1` is a prefix of `sweep-1-other`: the tag matches exactly, not as a prefix.
    expect(doc.found).toBe(3);
    expect(doc.actions.map((a) => `${a.step}: ${a.result}`).sort()).toEqual(
      [
        `${booked}: cancel booking: ok`,
        `${authorized}: cancel booking: ok`,
        `${ticketed}: void tickets: ok`,
        `${ticketed}: refund payment: ok`,
        `${ticketed}: cancel booking: ok`,
      ].sort(),
    );
    expect(doc.actions.find((a) => a.step === `${ticketed}: cancel booking`)?.detail).toMatch(/^already /);

    expect((await travel.bookings.get(booked)).status).toBe('cancelled');
    expect((await travel.bookings.get(authorized)).status).toBe('cancelled');
    expect((await travel.bookings.get(ticketed)).status).toBe('refunded');
    expect((await travel.bookings.get(otherRun)).status).toBe('confirmed');
    // No money left hanging: the authorization voided (by the server's cancel), the capture refunded.
    const payments = async (id: number) => (await travel.payments.history(id)).payments.map((p) => p.state);
    expect(await payments(authorized)).toEqual(['VOIDED']);
    expect(await payments(ticketed)).toEqual(['REFUNDED']);

    // Re-running the sweep (a retried CI job) finds the same bookings, all settled: nothing to do.
    const again = await runCli(['smoke', 'sweep', '--tag', tag, '--json'], {
      env,
      configDir: freshConfigDir(),
    });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ tag, found: 3, actions: [] });

    // The human table names each action too.
    const other = await runCli(['smoke', 'sweep', '--tag', `${tag}-other`], {
      env,
      configDir: freshConfigDir(),
    });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain(`1 smoke bookings match smoke:${tag}-other`);
    expect(other.stdout).toMatch(new RegExp(`${otherRun}: cancel booking\\s+ok`));
    expect((await travel.bookings.get(otherRun)).status).toBe('cancelled');
  }, 120_000);
});
