/**
 * Issue 13 part 2: ten parallel calls per money operation on one booking, each with its own
 * Idempotency-Key: exactly one effect in our tables and at the Stripe emulator; every loser gets 409
 * `operation_in_progress` (another operation of the booking in flight) or the operation's documented 400.
 */
import { describe, expect, it } from 'vitest';
import { bookingDb } from '../../src/domains/booking/tables.ts';
import type { FlightSupplier } from '../../src/suppliers/ports.ts';
import { check } from '../booking/checks.ts';
import {
  authorized,
  B,
  booked,
  expectOneWinner,
  intents,
  ops,
  paymentsOf,
  race,
  refundsOf,
  statusOf,
  txOf,
  useMoneyWorld,
} from './world.ts';

const ctx = useMoneyWorld();
const N = 10;

describe('ten parallel calls with distinct keys: one effect', () => {
  it('authorize: one live payment, one PaymentIntent', async () => {
    const b = await booked(ctx.w);
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/authorize`, {
        key: `race-auth-${b.id}-${i}`,
        body: { token: 'tok_sandbox_ok', currency: b.currency, amount_minor: b.total },
      }),
    );
    expectOneWinner(rs, ['invalid_payment_state', 'invalid_booking_state']);
    check('authorizePayment', rs.find((r) => r.status === 200) as never);
    const pays = await paymentsOf(ctx.w, b.id);
    expect(pays.map((p) => p.state)).toEqual(['AUTHORIZED']);
    expect(intents(ctx.w, b.id)).toHaveLength(1);
    expect(intents(ctx.w, b.id)[0]?.status).toBe('requires_capture');
    expect((await ops(ctx.w, b.id)).filter((o) => o.kind === 'authorize').map((o) => o.status)).toEqual([
      'done',
    ]);
  });

  it('capture: captured once', async () => {
    const b = await authorized(ctx.w);
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/payment/capture`, { key: `race-cap-${b.id}-${i}` }),
    );
    expectOneWinner(rs, ['invalid_payment_state']);
    const [pi] = intents(ctx.w, b.id);
    expect(pi?.status).toBe('succeeded');
    expect(pi?.amount_received).toBe(b.total);
    const caps = (await txOf(ctx.w, b.id)).filter((t) => t.type === 'capture');
    expect(caps.map((t) => t.status)).toEqual(['succeeded']);
    expect(await statusOf(ctx.w, b.id)).toBe('paid');
  });

  it('void: released once', async () => {
    const b = await authorized(ctx.w);
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/payment/void`, { key: `race-void-${b.id}-${i}` }),
    );
    expectOneWinner(rs, ['invalid_payment_state']);
    expect(intents(ctx.w, b.id)[0]?.status).toBe('canceled');
    expect((await txOf(ctx.w, b.id)).filter((t) => t.type === 'void')).toHaveLength(1);
  });

  it('refund (full): one refund at the provider, refunded never above captured', async () => {
    const b = await authorized(ctx.w);
    expect((await b.as('POST', `${B(b.id)}/payment/capture`, { key: `cap-${b.id}` })).status).toBe(200);
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/payment/refund`, { key: `race-ref-${b.id}-${i}` }),
    );
    expectOneWinner(rs, ['invalid_payment_state']);
    const [pi] = intents(ctx.w, b.id);
    expect(refundsOf(ctx.w, pi?.id as string)).toHaveLength(1);
    const [pay] = await paymentsOf(ctx.w, b.id);
    expect([pay?.state, Number(pay?.refunded_minor)]).toEqual(['REFUNDED', b.total]);
  });

  it('refund (partial, ten at once): what succeeded is exactly what the provider refunded', async () => {
    const b = await authorized(ctx.w);
    expect((await b.as('POST', `${B(b.id)}/payment/capture`, { key: `cap-${b.id}` })).status).toBe(200);
    const part = Math.floor(b.total / 4);
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/payment/refund?amount_minor=${part}`, { key: `race-pref-${b.id}-${i}` }),
    );
    const ok = rs.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    for (const r of rs.filter((x) => x.status !== 200)) expect(r.body.code).toBe('operation_in_progress');
    const [pi] = intents(ctx.w, b.id);
    expect(refundsOf(ctx.w, pi?.id as string)).toHaveLength(ok);
    const [pay] = await paymentsOf(ctx.w, b.id);
    expect(Number(pay?.refunded_minor)).toBe(ok * part);
  });

  it('ticket: captured once, ticketed once', async () => {
    const b = await authorized(ctx.w);
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/ticket`, { key: `race-tk-${b.id}-${i}`, body: {} }),
    );
    expectOneWinner(rs, ['already_ticketed', 'invalid_booking_state']);
    check('issueTickets', rs.find((r) => r.status === 200) as never);
    expect(await statusOf(ctx.w, b.id)).toBe('ticketed');
    expect((await txOf(ctx.w, b.id)).filter((t) => t.type === 'capture').map((t) => t.status)).toEqual([
      'succeeded',
    ]);
    expect(intents(ctx.w, b.id)[0]?.amount_received).toBe(b.total);
  });

  it('ticket void confirm: raised once', async () => {
    const b = await authorized(ctx.w, 'duffel');
    expect((await b.as('POST', `${B(b.id)}/ticket`, { key: `tk-${b.id}`, body: {} })).status).toBe(200);
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/ticket/void?confirm=true`, { key: `race-tv-${b.id}-${i}` }),
    );
    expectOneWinner(rs, ['not_ticketed', 'ticket_action_failed']);
    // The void gave the captured money back in the same operation: once, for the total.
    const won = rs.find((r) => r.status === 200);
    expect(won?.body.payment).toEqual({
      action: 'refund',
      amount_minor: b.total,
      currency: b.currency,
      status: 'succeeded',
    });
    expect(await statusOf(ctx.w, b.id)).toBe('refunded');
    const done = (await ops(ctx.w, b.id)).filter((o) => o.kind === 'ticket_void');
    expect(done.map((o) => o.status)).toEqual(['done']);
    const pi = intents(ctx.w, b.id)[0];
    expect(refundsOf(ctx.w, pi?.id as string).map((r) => r.amount)).toEqual([b.total]);
    expect((await txOf(ctx.w, b.id)).filter((t) => t.type === 'refund').map((t) => t.status)).toEqual([
      'succeeded',
    ]);
  });

  it('ticket void confirm on a payment never captured: the authorization released once, nothing refunded', async () => {
    const b = await authorized(ctx.w);
    const t = await b.as('POST', `${B(b.id)}/ticket`, { key: `tk-nc-${b.id}`, body: { capture: false } });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect((await paymentsOf(ctx.w, b.id)).at(-1)?.state).toBe('AUTHORIZED');
    const rs = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/ticket/void?confirm=true`, { key: `race-tvnc-${b.id}-${i}` }),
    );
    expectOneWinner(rs, ['not_ticketed', 'ticket_action_failed']);
    check('performTicketAction', rs.find((r) => r.status === 200) as never);
    expect(rs.find((r) => r.status === 200)?.body.payment).toEqual({
      action: 'void',
      amount_minor: b.total,
      currency: b.currency,
      status: 'succeeded',
    });
    expect((await paymentsOf(ctx.w, b.id)).at(-1)?.state).toBe('VOIDED');
    const pi = intents(ctx.w, b.id)[0];
    expect([pi?.status, pi?.amount_received]).toEqual(['canceled', 0]);
    expect(refundsOf(ctx.w, pi?.id as string)).toEqual([]);
    expect(await statusOf(ctx.w, b.id)).toBe('cancelled');
  });

  it('cancel: one supplier cancel, one void at the provider', async () => {
    const b = await authorized(ctx.w);
    const rs = await race(N, (i) => b.as('POST', `${B(b.id)}/cancel`, { key: `race-cx-${b.id}-${i}` }));
    expectOneWinner(rs, ['invalid_booking_state', 'cancellation_failed']);
    expect(await statusOf(ctx.w, b.id)).toBe('cancelled');
    expect(intents(ctx.w, b.id)[0]?.status).toBe('canceled');
    expect((await txOf(ctx.w, b.id)).filter((t) => t.type === 'void')).toHaveLength(1);
  });

  it('admin manual refund: one refund', async () => {
    const b = await authorized(ctx.w);
    expect((await b.as('POST', `${B(b.id)}/payment/capture`, { key: `cap-${b.id}` })).status).toBe(200);
    const admin = await ctx.w.user({ role: 'super_admin' });
    const [pay] = await paymentsOf(ctx.w, b.id);
    const rs = await race(N, (i) =>
      ctx.w.req('POST', `/api/v1/admin/payments/${pay?.id}/manual-refund`, {
        token: admin.token,
        key: `race-mr-${b.id}-${i}`,
        body: { amount_minor: b.total, currency: b.currency, reason: 'goodwill' },
      }),
    );
    expectOneWinner(rs, ['invalid_payment_state', 'amount_exceeds_refundable']);
    const [pi] = intents(ctx.w, b.id);
    expect(refundsOf(ctx.w, pi?.id as string)).toHaveLength(1);
  });

  it('ancillary purchase and EMD: held once, issued once', async () => {
    const b = await authorized(ctx.w);
    const cat = await b.as('GET', `${B(b.id)}/ancillaries/catalogue`);
    expect(cat.status, JSON.stringify(cat.body)).toBe(200);
    const item = cat.body.items[0];
    expect(item).toBeDefined();
    const got = await b.as('GET', B(b.id));
    const product = {
      code: item.code,
      rfic: item.rfic,
      rfisc: item.rfisc,
      booking_method: item.booking_method,
      provider: item.provider,
      customer_ref_ids: [String(got.body.passengers[0].passenger_id)],
      segment_ref_ids: String(got.body.flights[0].segment_id),
    };
    // Ten purchases in flight together: the first to take the booking holds its supplier call at a gate
    // until the other nine have answered, so none of them can arrive after it finished (a later purchase
    // with a new key is a new purchase, not a race).
    const adapter = ctx.w.suppliers.flight('amadeus') as FlightSupplier;
    const purchase = adapter.purchaseAncillaries;
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    let seen = 0;
    let allIn = () => {};
    const everyoneIn = new Promise<void>((r) => {
      allIn = r;
    });
    const count = () => {
      seen += 1;
      if (seen === N) allIn();
    };
    adapter.purchaseAncillaries = async (...args) => {
      count();
      await released;
      return purchase.apply(adapter, args);
    };
    let rs: Awaited<ReturnType<typeof race>>;
    try {
      const calls = race(N, (i) =>
        b
          .as('POST', `${B(b.id)}/ancillaries/purchase`, {
            key: `race-anc-${b.id}-${i}`,
            body: { products: [product] },
          })
          .finally(count),
      );
      // Every call has either answered or reached the supplier (the winner counts once there, once after).
      await everyoneIn;
      release();
      rs = await calls;
    } finally {
      adapter.purchaseAncillaries = purchase;
      release();
    }
    const won = rs.filter((r) => r.status === 200);
    expect(won.length, JSON.stringify(rs.map((r) => [r.status, r.body?.code, r.body?.detail]))).toBe(1);
    for (const r of rs.filter((x) => x.status !== 200)) expect(r.body.code).toBe('operation_in_progress');
    const emd = await race(N, (i) =>
      b.as('POST', `${B(b.id)}/ancillaries/emd`, { key: `race-emd-${b.id}-${i}`, body: {} }),
    );
    expectOneWinner(emd, ['no_pending_ancillaries']);
    const rows = await bookingDb(ctx.w.database.db)
      .selectFrom('booking_ancillaries')
      .select(['status', 'emd_number'])
      .where('booking_id', '=', b.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('issued');
  });
});
