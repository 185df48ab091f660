/**
 * Duffel's void and refund are an order cancellation (quote, then confirm). Its quote can lack an amount
 * (`refund_amount` null: the airline gave none) or carry it in Duffel's billing currency rather than the
 * order's: neither is a refund of 0 or a void, and a confirmed refund then carries no amount (the payment
 * settlement hands it to an operator instead of guessing).
 */
import type { Duffel } from '@duffel/api';
import { describe, expect, it } from 'vitest';
import { ticketAction } from '../../src/suppliers/duffel/ticket-actions.ts';

const order = {
  id: 'ord_1',
  cancelled_at: null,
  payment_status: { awaiting_payment: false },
  total_amount: '500.00',
  total_currency: 'GBP',
  conditions: { refund_before_departure: { allowed: true } },
};

/** A Duffel client answering the cancellation quote with `quote`, recording confirmations. */
function duffel(quote: { refund_amount: string | null; refund_currency: string | null }) {
  const confirmed: string[] = [];
  const client = {
    orderCancellations: {
      create: async () => ({ data: { id: 'ore_1', ...quote } }),
      confirm: async (id: string) => {
        confirmed.push(id);
        return { data: { id } };
      },
    },
  } as unknown as Duffel;
  const runner = {
    order: async () => order as never,
    run: <T>(_o: unknown, fn: (d: Duffel) => Promise<T>) => fn(client),
  };
  return { runner, confirmed };
}

describe('Duffel cancellation quotes', () => {
  it('a quote in the order currency: refund and fee; the whole total back is a void', async () => {
    const partial = duffel({ refund_amount: '450.00', refund_currency: 'GBP' });
    const q = await ticketAction(partial.runner, 'ord_1', 'refund', false, undefined);
    expect(q).toMatchObject({
      permitted: true,
      refund: { currency: 'GBP', amount_minor: 45_000 },
      fee: { currency: 'GBP', amount_minor: 5_000 },
    });
    expect((await ticketAction(partial.runner, 'ord_1', 'void', false, undefined)).determination).toBe(
      'void_window_expired',
    );
    const full = duffel({ refund_amount: '500.00', refund_currency: 'GBP' });
    const v = await ticketAction(full.runner, 'ord_1', 'void', true, undefined);
    expect(v).toMatchObject({ confirmed: true, coupon_status: 'VOID', refund: { amount_minor: 50_000 } });
    expect(full.confirmed).toEqual(['ore_1']);
  });

  it.each([
    ['no amount (refund_amount null)', { refund_amount: null, refund_currency: null }, 'no refund amount'],
    [
      'an amount in another currency',
      { refund_amount: '620.00', refund_currency: 'USD' },
      'quoted in USD (620.00)',
    ],
  ])('%s: not a void, and a refund without money fields', async (_name, quote, says) => {
    const d = duffel(quote);
    const v = await ticketAction(d.runner, 'ord_1', 'void', true, undefined);
    expect(v).toMatchObject({
      confirmed: false,
      permitted: false,
      determination: 'refund_quote_unavailable',
    });
    expect(v.message).toContain(says);
    const q = await ticketAction(d.runner, 'ord_1', 'refund', false, undefined);
    expect(q).toMatchObject({ confirmed: false, permitted: true });
    expect(q.refund).toBeUndefined();
    expect(q.fee).toBeUndefined();
    expect(d.confirmed).toEqual([]);
    const r = await ticketAction(d.runner, 'ord_1', 'refund', true, undefined);
    expect(r).toMatchObject({ confirmed: true, permitted: true, coupon_status: 'REFUNDED' });
    expect(r.refund).toBeUndefined();
    expect(r.message).toContain('an operator settles the amount');
    expect(d.confirmed).toEqual(['ore_1']);
  });
});
