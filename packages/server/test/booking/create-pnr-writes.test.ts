/**
 * What one createPnr leaves in the database, now that the write-ahead row and its reconciliation job are
 * one statement and the settlement (order, job done, audit row, the answer stored with the key) another:
 * the same rows as before, each exactly once, and an answer equal to the booking as the database holds it.
 */
import { describe, expect, it } from 'vitest';
import { bookingDb } from '../../src/domains/flight-booking/tables.ts';
import { callWindowMs } from '../../src/internal/config.ts';
import { useWorld } from './checks.ts';
import { contact, passenger, pickBookable, SANDBOX_ROUTES } from './harness.ts';

const ctx = useWorld();
const { currency } = SANDBOX_ROUTES.amadeus;

async function offerFor(agent: { id: string }, companyId: number) {
  const hit = pickBookable('amadeus', await ctx.w.seedOffers('amadeus', { userId: agent.id, companyId }));
  if (!hit) throw new Error('no bookable offer');
  return hit.offer_id;
}

const rowsOf = async (id: number) => {
  const db = bookingDb(ctx.w.database.db);
  return {
    booking: await db
      .selectFrom('flight_bookings')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
    jobs: await db
      .selectFrom('jobs')
      .selectAll()
      .where('dedupe_key', '=', `booking.reconcile:${id}`)
      .execute(),
    audit: await db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'booking')
      .where('entity_id', '=', String(id))
      .execute(),
  };
};

describe('createPnr writes', () => {
  it('a confirmed booking: its reconciliation job (due at the end of the call window) done, one created audit row, the answer stored with the key', async () => {
    const companyId = await ctx.w.company();
    const agent = await ctx.w.user({ companyId });
    const body = { offer_id: await offerFor(agent, companyId), currency, passengers: [passenger()], contact };
    const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'writes-1',
      body,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('confirmed');
    const { booking, jobs, audit } = await rowsOf(r.body.booking_id);
    expect(booking.status).toBe('confirmed');
    expect(booking.pnr).toBe(r.body.pnr);
    expect(jobs).toHaveLength(1);
    const job = jobs[0] as (typeof jobs)[number];
    expect(job).toMatchObject({ queue: 'booking.reconcile', status: 'done', max_attempts: 8, attempts: 0 });
    expect(job.payload).toEqual({ booking_id: r.body.booking_id, force: false });
    expect(new Date(job.run_at).getTime()).toBe(new Date(booking.created_at).getTime() + callWindowMs());
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'created',
      actor_id: agent.id,
      company_id: companyId,
      changes: { status: 'confirmed', payment_mode: 'PNR_FIRST' },
    });
    expect(audit[0]?.request_id).toBeTruthy();
    const key = await ctx.w.database.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('idem_key', '=', 'writes-1')
      .executeTakeFirstOrThrow();
    expect([key.status, key.response_status, key.response_body]).toEqual(['completed', 200, r.body]);
    // The answer (made before the statement that stores it) is the booking as the database now holds it.
    const read = await ctx.w.req('GET', `/api/v1/bookings/${r.body.booking_id}`, { token: agent.token });
    expect(read.body).toEqual(r.body);
    const replay = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'writes-1',
      body,
    });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([
      200,
      'true',
      r.body,
    ]);
    expect((await rowsOf(r.body.booking_id)).audit).toHaveLength(1);
  });

  it('PAYMENT_FIRST: the row alone, no reconciliation job (no supplier is called before the payment)', async () => {
    const companyId = await ctx.w.company();
    const agent = await ctx.w.user({ companyId });
    const body = {
      offer_id: await offerFor(agent, companyId),
      currency,
      passengers: [passenger()],
      contact,
      payment_mode: 'PAYMENT_FIRST',
    };
    const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'writes-2',
      body,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { booking, jobs, audit } = await rowsOf(r.body.booking_id);
    expect(booking.status).toBe(r.body.status);
    expect(booking.pnr).toBeNull();
    expect(jobs).toHaveLength(0);
    expect(audit.map((a) => a.action)).toEqual(['created']);
  });

  it('a PENDING answer: the job stays queued, re-armed to run now', async () => {
    const companyId = await ctx.w.company();
    const agent = await ctx.w.user({ companyId });
    const body = {
      offer_id: await offerFor(agent, companyId),
      currency,
      passengers: [passenger('PENDING')],
      contact,
    };
    const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'writes-3',
      body,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(502);
    const { booking, jobs, audit } = await rowsOf(r.body.booking_id);
    expect(booking.status).toBe('pending_pnr');
    expect(jobs.map((j) => j.status)).toEqual(['queued']);
    expect(new Date(jobs[0]?.run_at as Date).getTime()).toBeLessThanOrEqual(ctx.w.clock.now().getTime());
    expect(audit).toHaveLength(1);
  });
});
