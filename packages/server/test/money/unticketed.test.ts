/**
 * A captured booking left without a ticket is never left alone (ticketing/unticketed.ts): once its
 * ticketing is concluded without tickets (`ticketing_unconfirmed`), the `ticketing.unticketed` job, after
 * UNTICKETED_REFUND_DELAY_MS, asks the supplier first: tickets found -> `ticketed`; none -> the capture is
 * refunded once and the booking is `refunded`. Run on the world's manual clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookingDb } from '../../src/domains/flight-booking/tables.ts';
import { authorized, B, drainJobs, paymentsOf, refundsOf, statusOf, useMoneyWorld } from './world.ts';

const ctx = useMoneyWorld();
const DELAY_MS = 60_000;

beforeEach(() => {
  process.env.UNTICKETED_REFUND_DELAY_MS = String(DELAY_MS);
});
afterEach(() => {
  delete process.env.UNTICKETED_REFUND_DELAY_MS;
});

const actions = async (id: number) =>
  (
    await ctx.w.database.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('entity_type', '=', 'booking')
      .where('entity_id', '=', String(id))
      .execute()
  ).map((a) => a.action);

/** A Duffel booking captured, whose payment to Duffel failed before it paid: ticketing unconfirmed. */
async function capturedWithoutTicket() {
  const b = await authorized(ctx.w, 'duffel');
  ctx.w.mocks.states.duffel?.injectFault({
    method: 'POST',
    path: '/air/payments',
    kind: 'http_500',
    when: 'before',
  });
  const r = await b.as('POST', `${B(b.id)}/ticket`, { key: `unt-${b.id}`, body: {} });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  // The money job looks until it gives up (no tickets): shorter steps than the follow-up's delay.
  await drainJobs(ctx.w, 40, 5_000);
  return b;
}

describe('captured without a ticket', () => {
  it('no tickets at the supplier: the follow-up refunds the capture once and the booking says refunded', async () => {
    const b = await capturedWithoutTicket();
    const log = await actions(b.id);
    expect(log).toContain('ticketing_unconfirmed');
    const [pay] = await paymentsOf(ctx.w, b.id);
    const pi = pay?.provider_payment_ref as string;
    await drainJobs(ctx.w, 4, DELAY_MS);
    expect(await statusOf(ctx.w, b.id)).toBe('refunded');
    expect(refundsOf(ctx.w, pi).map((r) => r.amount)).toEqual([b.total]);
    expect(await actions(b.id)).toContain('unticketed_refunded');
    // Nothing more happens on later runs.
    await drainJobs(ctx.w, 2, DELAY_MS);
    expect(refundsOf(ctx.w, pi)).toHaveLength(1);
  });

  it('the supplier ticketed after all: the follow-up finds the tickets, the booking is ticketed, no refund', async () => {
    const b = await capturedWithoutTicket();
    expect(await statusOf(ctx.w, b.id)).toBe('paid');
    const row = await bookingDb(ctx.w.database.db)
      .selectFrom('flight_bookings')
      .select(['supplier_order_ref', 'supplier_total_minor', 'supplier_currency'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    await ctx.w.suppliers.flight('duffel')?.issueTicket(row.supplier_order_ref as string, {
      currency: (row.supplier_currency ?? b.currency) as never,
      amount_minor: Number(row.supplier_total_minor),
    });
    const [pay] = await paymentsOf(ctx.w, b.id);
    await drainJobs(ctx.w, 4, DELAY_MS);
    expect(await statusOf(ctx.w, b.id)).toBe('ticketed');
    expect(await actions(b.id)).toContain('unticketed_ticketed');
    expect(refundsOf(ctx.w, pay?.provider_payment_ref as string)).toEqual([]);
  });
});
