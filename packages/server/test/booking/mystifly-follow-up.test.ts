/**
 * Mystifly's asynchronous ticketing and servicing followed by the durable job (`ticketing.follow_up`)
 * while nobody reads the booking: issue answers "in process", the job re-reads the ticket status until
 * the tickets are issued (the booking is then ticketed with its documents); a confirmed void the
 * consolidator completes later cancels the booking; a supplier that never finishes is given up on with
 * an audit entry. Jobs run through a JobRunner on the world's manual clock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingJobHandlers } from '../../src/domains/booking/routes.ts';
import { bookingDb } from '../../src/domains/booking/tables.ts';
import { FOLLOW_UP_LIMIT_MS, TICKET_FOLLOW_UP_QUEUE } from '../../src/domains/ticketing/follow-up.ts';
import { ticketingJobHandlers } from '../../src/domains/ticketing/service.ts';
import { storedTickets } from '../../src/domains/ticketing/store.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { check, useWorld } from './checks.ts';
import { contact, passenger, SANDBOX_ROUTES } from './harness.ts';

const ctx = useWorld();
const { currency } = SANDBOX_ROUTES.mystifly;
let runner: JobRunner;
let agent: { id: string; token: string };
let seq = 0;

const as = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
  ctx.w.req(method, path, { token: agent.token, ...o });
const B = (id: number) => `/api/v1/bookings/${id}`;
/** Straight from the database: no API read (the clock may run past the agent's token). */
const statusOf = async (id: number) =>
  (
    await bookingDb(ctx.w.database.db)
      .selectFrom('flight_bookings')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;
const mf = async (id: number) => {
  const ref = (await as('GET', B(id))).body.supplier_order_ref as string;
  const b = ctx.w.mocks.states.mystifly?.bookings.get(ref);
  if (!b) throw new Error(`no emulator booking ${ref}`);
  return b;
};
const jobsFor = (id: number) =>
  ctx.w.database.db
    .selectFrom('jobs')
    .selectAll()
    .where('queue', '=', TICKET_FOLLOW_UP_QUEUE)
    .where('dedupe_key', 'like', `${TICKET_FOLLOW_UP_QUEUE}:${id}:%`)
    .orderBy('created_at')
    .execute();
const audits = (id: number) =>
  ctx.w.database.db
    .selectFrom('audit_log')
    .select(['action', 'actor_role', 'reason'])
    .where('entity_type', '=', 'booking')
    .where('entity_id', '=', String(id))
    .execute();

/** A paid Mystifly booking whose ticketing was requested (in process), its status never read. */
async function issuedInProcess(): Promise<number> {
  const n = ++seq;
  const companyId = await ctx.w.company();
  agent = await ctx.w.user({ companyId });
  const offers = await ctx.w.seedOffers('mystifly', { userId: agent.id, companyId });
  const hit = offers.find((o) => !o.offer.lcc && o.offer.refundable);
  expect(hit).toBeDefined();
  const body = { offer_id: hit?.offer_id, currency, passengers: [passenger()], contact };
  const created = await as('POST', '/api/v1/bookings/createPnr', { key: `myst-fu-create-${n}`, body });
  check('createPnr', created);
  const id = created.body.booking_id as number;
  const auth = await as('POST', `${B(id)}/authorize`, {
    key: `myst-fu-auth-${n}`,
    body: { token: 'tok_sandbox_ok', currency, amount_minor: created.body.pricing.total_minor },
  });
  check('authorizePayment', auth);
  const t = await as('POST', `${B(id)}/ticket`, { key: `myst-fu-ticket-${n}`, body: {} });
  check('issueTickets', t);
  expect(t.body).toMatchObject({ issued: false, raw_status: '3', status: 'paid' });
  return id;
}

beforeAll(() => {
  const deps = {
    db: ctx.w.database.db,
    clock: ctx.w.clock,
    mailer: ctx.w.mailer,
    suppliers: ctx.w.suppliers,
  };
  runner = new JobRunner({
    db: ctx.w.database.db,
    clock: ctx.w.clock,
    handlers: { ...bookingJobHandlers(deps), ...ticketingJobHandlers(deps) },
    backoffBaseMs: 1000,
  });
});

describe('mystifly: the follow-up job completes what nobody reads', () => {
  let id: number;

  it('an in-process issue is ticketed by the job, with its documents, without any status read', async () => {
    id = await issuedInProcess();
    // Queued with the ticketing request, not yet due.
    const [job] = await jobsFor(id);
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await runner.runOnce()).toBe(0);
    // The emulator needs two status reads before it issues; nothing else reads it.
    const b = await mf(id);
    expect(b.ticketing?.pollsLeft).toBe(2);
    if (b.ticketing) b.ticketing.readyAt = Number.MAX_SAFE_INTEGER;
    ctx.w.clock.advance(31_000);
    expect(await runner.runOnce()).toBe(1);
    // Still in process: the job read the status once and rescheduled itself with backoff.
    expect(await statusOf(id)).toBe('paid');
    const [again] = await jobsFor(id);
    expect(again).toMatchObject({ status: 'queued', attempts: 1 });
    expect(again?.last_error).toMatch(/still pending/);
    expect(new Date(again?.run_at as Date).getTime()).toBeGreaterThan(ctx.w.clock.now().getTime());
    expect(await runner.runOnce()).toBe(0);
    ctx.w.clock.advance(1_000);
    expect(await runner.runOnce()).toBe(1);
    expect(await statusOf(id)).toBe('ticketed');
    const [done] = await jobsFor(id);
    expect(done?.status).toBe('done');
    const docs = await storedTickets(ctx.w.database.db, id);
    expect(docs).toHaveLength(1);
    expect(docs[0]?.coupons.every((c) => c.status === 'OPEN')).toBe(true);
    const raw = await bookingDb(ctx.w.database.db)
      .selectFrom('flight_bookings')
      .select('ticket_raw_status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(raw.ticket_raw_status).toBe('6');
    expect((await audits(id)).map((a) => `${a.action}:${a.actor_role}`)).toContain('ticketed:system');
  });

  it('a confirmed void the consolidator completes later cancels the booking through the job', async () => {
    const c = await as('POST', `${B(id)}/ticket/void?confirm=true`);
    check('performTicketAction', c);
    expect(c.body).toMatchObject({ determination: 'request_raised', booking_status: 'ticketed' });
    // Nothing moves yet: the card gets the quoted refund (the consolidator keeps its fee) when it completes.
    const paid = (await as('GET', `${B(id)}/payment/history`)).body.payments.at(-1);
    const quoted = c.body.refund.amount_minor as number;
    expect(quoted).toBeGreaterThan(0);
    expect(quoted).toBeLessThan(paid.captured_minor);
    expect(c.body.payment).toEqual({
      action: 'refund',
      amount_minor: quoted,
      currency: paid.currency,
      status: 'awaiting_supplier',
    });
    expect(paid.refunded_minor).toBe(0);
    const queued = (await jobsFor(id)).filter((j) => j.status === 'queued');
    expect(queued).toHaveLength(1);
    expect(queued[0]?.dedupe_key).toContain(`:servicing:${c.body.servicing_request_id}`);
    // Half an hour on, the consolidator has worked the request without being asked.
    const ptr = (await mf(id)).ptrs.at(-1);
    expect(ptr?.id).toBe(c.body.servicing_request_id);
    if (ptr) ptr.createdAt -= 31 * 60_000;
    expect(await statusOf(id)).toBe('ticketed');
    ctx.w.clock.advance(31_000);
    expect(await runner.runOnce()).toBe(1);
    // The job that saw the void completed gave the quoted money back; the fee stays captured.
    expect(await statusOf(id)).toBe('cancelled');
    expect((await jobsFor(id)).every((j) => j.status === 'done')).toBe(true);
    const h = (await as('GET', `${B(id)}/payment/history`)).body;
    expect(h.payments.at(-1)).toMatchObject({ state: 'CAPTURED', refunded_minor: quoted });
    expect(h.transactions.at(-1)).toMatchObject({
      type: 'refund',
      status: 'succeeded',
      amount_minor: quoted,
    });
    const st = ctx.w.mocks.states.stripe;
    const pi = [...(st?.paymentIntents.values() ?? [])].find((x) => x.metadata.booking_id === String(id));
    const back = [...(st?.refunds.values() ?? [])].filter((r) => r.payment_intent === pi?.id);
    expect(back.map((r) => [r.status, Number(r.amount)])).toEqual([['succeeded', quoted]]);
    // The backstop queued with the move has nothing left to do.
    const backstop = await ctx.w.database.db
      .selectFrom('jobs')
      .select(['status'])
      .where('dedupe_key', '=', `payment.ticket_settle:${id}`)
      .execute();
    expect(backstop.map((j) => j.status)).toEqual(['done']);
    const docs = await storedTickets(ctx.w.database.db, id);
    expect(docs[0]?.coupons.every((x) => x.status === 'VOID')).toBe(true);
    expect((await audits(id)).map((a) => `${a.action}:${a.actor_role}`)).toContain('ticket_void:system');
  });

  it('a supplier that never finishes is given up on after the bound, with an audit entry', async () => {
    const other = await issuedInProcess();
    const b = await mf(other);
    if (b.ticketing) {
      b.ticketing.pollsLeft = 1_000_000;
      b.ticketing.readyAt = Number.MAX_SAFE_INTEGER;
    }
    ctx.w.clock.advance(31_000);
    expect(await runner.runOnce()).toBe(1);
    expect((await jobsFor(other))[0]).toMatchObject({ status: 'queued', attempts: 1 });
    ctx.w.clock.advance(FOLLOW_UP_LIMIT_MS);
    expect(await runner.runOnce()).toBe(1);
    expect((await jobsFor(other))[0]).toMatchObject({ status: 'done', attempts: 2 });
    expect(await statusOf(other)).toBe('paid');
    const gaveUp = (await audits(other)).filter((a) => a.action === 'ticket_follow_up_abandoned');
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]?.reason).toMatch(/issue still pending/);
    ctx.w.clock.advance(FOLLOW_UP_LIMIT_MS);
    expect(await runner.runOnce()).toBe(0);
  });
});
