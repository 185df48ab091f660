/**
 * Issue 30: each booking, payment and ticket state change writes exactly one event in its transaction
 * (the outbox), carrying the resource as the API returns it, its version and its cause (request or job).
 * And atomicity both ways: a change whose transaction fails leaves no event, an event that cannot be
 * written leaves no change.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { BookingRow } from '../../src/domains/flight-booking/store.ts';
import { findBooking, setStatus } from '../../src/domains/flight-booking/store.ts';
import { useWorld } from '../booking/checks.ts';
import { contact, passenger, pickBookable, SANDBOX_ROUTES } from '../booking/harness.ts';

const ctx = useWorld();
const supplier = 'duffel' as const;
const { currency } = SANDBOX_ROUTES[supplier];

interface Row {
  seq: string;
  type: string;
  company_id: number | null;
  resource_type: string;
  resource_id: string;
  resource_version: number;
  data: Record<string, unknown>;
  request_id: string | null;
  job_id: string | null;
}

/** Every event so far, in order; `since` drops the first n. */
async function events(since = 0): Promise<Row[]> {
  const r = await sql<Row>`select * from events order by txid, seq`.execute(ctx.w.database.db);
  return r.rows.slice(since).map((e) => ({
    ...e,
    data: typeof e.data === 'string' ? JSON.parse(e.data) : e.data,
  }));
}

/** Runs `fn` and returns the events it wrote. */
async function emitted(fn: () => Promise<unknown>): Promise<Row[]> {
  const before = (await events()).length;
  await fn();
  return events(before);
}

async function world() {
  const companyId = await ctx.w.company();
  const agent = await ctx.w.user({ role: 'company_staff', companyId });
  const offers = await ctx.w.seedOffers(supplier, { userId: agent.id, companyId });
  const as = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
    ctx.w.req(method, path, { token: agent.token, ...o });
  const book = async (last = 'RAHMAN') => {
    const hit = pickBookable(supplier, offers);
    if (!hit) throw new Error('no bookable offer');
    return as('POST', '/api/v1/bookings/createPnr', {
      key: `ev-${Math.random()}`,
      body: { offer_id: hit.offer_id, currency, passengers: [passenger(last)], contact },
    });
  };
  return { companyId, agent, as, book };
}

describe('booking, payment and ticket events (outbox)', () => {
  it('createPnr, payment moves, ticketing and void each emit exactly their one event', async () => {
    const { companyId, as, book } = await world();
    let created!: Awaited<ReturnType<typeof book>>;
    const [c] = await emitted(async () => {
      created = await book();
    });
    expect(created.status, JSON.stringify([created.body, ctx.w.violations])).toBe(200);
    const id = created.body.booking_id as number;
    expect(await events((await events()).length)).toEqual([]);
    expect(c).toMatchObject({
      type: 'booking.created',
      company_id: companyId,
      resource_type: 'booking',
      resource_id: String(id),
      resource_version: 1,
      request_id: created.headers.get('x-request-id'),
      job_id: null,
    });
    expect(c?.data).toEqual(created.body);

    const B = `/api/v1/bookings/${id}`;
    const total = created.body.pricing.total_minor as number;
    const pay = (token: string) =>
      as('POST', `${B}/authorize`, { key: `a-${token}`, body: { token, currency, amount_minor: total } });
    const declined = await emitted(() => pay('tok_sandbox_decline'));
    expect(declined.map((e) => [e.type, e.resource_type])).toEqual([['payment.declined', 'payment']]);
    expect(declined[0]?.company_id).toBe(companyId);

    let auth!: Awaited<ReturnType<typeof pay>>;
    const authorized = await emitted(async () => {
      auth = await pay('tok_sandbox_ok');
    });
    expect(authorized.map((e) => e.type)).toEqual(['payment.authorized']);
    expect(authorized[0]).toMatchObject({
      resource_id: String(auth.body.payment_id),
      resource_version: 1,
      request_id: auth.headers.get('x-request-id'),
    });
    expect(authorized[0]?.data).toMatchObject({ payment_id: auth.body.payment_id, state: 'AUTHORIZED' });

    const captured = await emitted(() => as('POST', `${B}/payment/capture`, { key: 'cap' }));
    expect(captured.map((e) => [e.type, e.resource_version])).toEqual([['payment.captured', 2]]);

    const ticketed = await emitted(() => as('POST', `${B}/ticket`, { key: 'tkt', body: {} }));
    expect(ticketed.map((e) => [e.type, e.resource_type, e.resource_version])).toEqual([
      ['ticket.issued', 'booking', 2],
    ]);
    expect(ticketed[0]?.data.status).toBe('ticketed');

    const voided = await emitted(() => as('POST', `${B}/ticket/void?confirm=true`));
    // Two changes, two events: the booking follows the ticket, the card gets its money back.
    expect(voided.map((e) => e.type).sort()).toEqual(['payment.refunded', 'ticket.voided']);
    const all = await events();
    const ofBooking = all.filter((e) => e.resource_type === 'booking' && e.resource_id === String(id));
    expect(ofBooking.map((e) => e.resource_version)).toEqual([1, 2, 3]);
  });

  it('cancel and the admin override emit booking.cancelled and booking.status_overridden', async () => {
    const { as, book } = await world();
    const a = await book();
    const id = a.body.booking_id as number;
    const cancelled = await emitted(() => as('POST', `/api/v1/bookings/${id}/cancel`, { key: 'cx' }));
    expect(cancelled.map((e) => [e.type, e.data.status])).toEqual([['booking.cancelled', 'cancelled']]);

    const b = await book();
    const admin = await ctx.w.user({ role: 'super_admin' });
    const over = await emitted(() =>
      ctx.w.req('POST', `/api/v1/admin/bookings/${b.body.booking_id}/override-status`, {
        token: admin.token,
        body: { new_status: 'cancelled', reason: 'agency asked by phone' },
      }),
    );
    expect(over.map((e) => [e.type, e.data.status])).toEqual([['booking.status_overridden', 'cancelled']]);
  });

  it('a PENDING booking: booking.created (pending_pnr), then booking.pending_settled from the job', async () => {
    const { book } = await world();
    const r = await book('PENDING');
    expect(r.status).toBe(502);
    const id = String(r.body.booking_id);
    const mine = async () =>
      (await events()).filter((e) => e.resource_id === id && e.resource_type === 'booking');
    expect((await mine()).map((e) => [e.type, e.data.status])).toEqual([['booking.created', 'pending_pnr']]);
    ctx.w.clock.advance(10 * 60_000);
    expect(await ctx.w.runner.runOnce()).toBeGreaterThanOrEqual(1);
    const after = await mine();
    expect(after.map((e) => [e.type, e.data.status, e.resource_version])).toEqual([
      ['booking.created', 'pending_pnr', 1],
      ['booking.pending_settled', 'confirmed', 2],
    ]);
    expect(after[1]?.job_id).toMatch(/.+/);
    expect(after[1]?.request_id).toBeNull();
  });

  it('no event without its change, no change without its event', async () => {
    const { book } = await world();
    const id = (await book()).body.booking_id as number;
    const db = ctx.w.database.db;
    const status = async () => ((await findBooking(db, id)) as BookingRow).status;
    const count = async () => (await events()).length;
    const n = await count();
    // The transaction fails after the change: neither the change nor its event is there.
    await expect(
      db.transaction().execute(async (trx) => {
        const b = (await findBooking(trx, id, { forUpdate: true })) as BookingRow;
        await setStatus(trx, b, 'cancelled', new Date(), {}, 'cancel');
        expect(
          (await sql<{ n: number }>`select count(*)::int as n from events`.execute(trx)).rows[0]?.n,
        ).toBe(n + 1);
        throw new Error('crash after the change');
      }),
    ).rejects.toThrow('crash after the change');
    expect([await status(), await count()]).toEqual(['confirmed', n]);
    // The event cannot be written: the change does not commit either.
    await sql`create function refuse_event() returns trigger language plpgsql as $$ begin raise exception 'events refused'; end $$`.execute(
      db,
    );
    await sql`create trigger refuse_event before insert on events for each row execute function refuse_event()`.execute(
      db,
    );
    try {
      await expect(
        db.transaction().execute(async (trx) => {
          const b = (await findBooking(trx, id, { forUpdate: true })) as BookingRow;
          await setStatus(trx, b, 'cancelled', new Date(), {}, 'cancel');
        }),
      ).rejects.toThrow(/events refused/);
    } finally {
      await sql`drop trigger refuse_event on events`.execute(db);
      await sql`drop function refuse_event()`.execute(db);
    }
    expect([await status(), await count()]).toEqual(['confirmed', n]);
  });
});
