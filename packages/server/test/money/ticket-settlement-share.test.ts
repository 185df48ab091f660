/**
 * What a confirmed void/refund gives back, decided from the supplier's quote and the payment's state:
 * the customer's share of the supplier refund (markup and conversion included), a released authorization,
 * or only the fee captured from an authorization.
 */
import { describe, expect, it } from 'vitest';
import type { PaymentRow } from '../../src/domains/flight-booking/payment/store.ts';
import { decide } from '../../src/domains/flight-booking/payment/ticket-settlement.ts';
import { customerShare, shownQuote } from '../../src/domains/flight-booking/ticket-quote.ts';

const money = (amount_minor: number, currency = 'EUR') => ({ amount_minor, currency });
const pay = (over: Partial<PaymentRow>): PaymentRow =>
  ({
    id: 1,
    state: 'CAPTURED',
    amount_minor: 60_000,
    captured_minor: 60_000,
    refunded_minor: 0,
    currency: 'GBP',
    ...over,
  }) as PaymentRow;

describe('customerShare', () => {
  it('a void (refund = supplier total) gives everything back; no quote, everything', () => {
    expect(customerShare(60_000, { refund: money(50_000), fee: money(0) }, 50_000, 'GBP')).toBe(60_000);
    expect(customerShare(60_000, {}, 50_000, 'GBP')).toBe(60_000);
  });
  it('a refund keeping a fee gives back the same proportion of what the customer paid, rounded down', () => {
    // The supplier keeps 10 % in its own currency: the customer gets 90 % of the 600.00 GBP paid.
    expect(customerShare(60_000, { refund: money(45_000), fee: money(5_000) }, 50_000, 'GBP')).toBe(54_000);
    expect(customerShare(1001, { refund: money(1), fee: money(2) }, null, 'GBP')).toBe(333);
    // No fee given: the supplier total is the denominator.
    expect(customerShare(60_000, { refund: money(25_000) }, 50_000, 'GBP')).toBe(30_000);
  });
  it('three-decimal currencies give back an amount the provider can move (whole 10 fils)', () => {
    // 90 % of 12.340 KWD is 11.106: 11.100 goes back, never a fils step Stripe refuses; 123.40 USD gives 111.06.
    const tenPercentFee = { refund: money(45_000), fee: money(5_000) };
    expect(customerShare(12_340, tenPercentFee, 50_000, 'KWD')).toBe(11_100);
    expect(customerShare(12_340, tenPercentFee, 50_000, 'BHD')).toBe(11_100);
    expect(customerShare(12_340, tenPercentFee, 50_000, 'OMR')).toBe(11_100);
    expect(customerShare(12_340, tenPercentFee, 50_000, 'USD')).toBe(11_106);
  });
  it('a non-refundable fare gives nothing back', () => {
    expect(customerShare(60_000, { refund: money(0), fee: money(50_000) }, 50_000, 'GBP')).toBe(0);
  });
});

describe('decide', () => {
  it('captured: refunds the share less what was refunded already', () => {
    expect(decide(pay({ refunded_minor: 100 }), 60_000)).toEqual({
      kind: 'refund',
      amount: 59_900,
      returned: 59_900,
      action: 'refund',
    });
    expect(decide(pay({}), 54_000)).toMatchObject({ kind: 'refund', amount: 54_000 });
    expect(decide(pay({ refunded_minor: 60_000, state: 'REFUNDED' }), 60_000)).toBeNull();
    expect(decide(pay({ refunded_minor: 55_000 }), 54_000)).toBeNull();
  });
  it('authorized: releases it all, or captures only the fee and releases the rest', () => {
    expect(decide(pay({ state: 'AUTHORIZED', captured_minor: 0 }), 60_000)).toEqual({
      kind: 'void',
      amount: undefined,
      returned: 60_000,
      action: 'void',
    });
    expect(decide(pay({ state: 'AUTHORIZED', captured_minor: 0 }), 54_000)).toEqual({
      kind: 'capture',
      amount: 6_000,
      returned: 54_000,
      action: 'partial_capture',
    });
  });
  it('nothing live: nothing moves', () => {
    for (const state of ['VOIDED', 'FAILED', 'REFUNDED'] as const)
      expect(decide(pay({ state }), 60_000)).toBeNull();
  });
});

describe("shownQuote (contract §6: a quote in the booking's currency)", () => {
  // A GBP fare of 500.00 sold in USD at 1.25 with 25.00 markup: the customer's total is 650.00 USD.
  const booking = {
    pricing: { currency: 'USD', total_minor: 65_000 } as never,
    supplier_total_minor: 50_000,
    supplier_currency: 'GBP' as const,
    fx_rate: 1.25,
  };
  const gbp = (amount_minor: number) => ({ amount_minor, currency: 'GBP' });

  it('a refund keeping a fee: refund is what the settlement gives back, fee the rest of the total', () => {
    const q = shownQuote(booking, { refund: gbp(45_000), fee: gbp(5_000) });
    expect(q.refund).toEqual({
      currency: 'USD',
      amount_minor: customerShare(65_000, { refund: gbp(45_000), fee: gbp(5_000) }, 50_000, 'USD'),
    });
    expect(q.refund?.amount_minor).toBe(58_500);
    expect(q.fee).toEqual({ currency: 'USD', amount_minor: 6_500 });
    expect(q.supplier_refund).toEqual(gbp(45_000));
    expect(q.supplier_fee).toEqual(gbp(5_000));
    expect(q.fx_rate).toBe(1.25);
  });

  it('a void gives back the whole total; nothing quoted shows nothing', () => {
    expect(shownQuote(booking, { refund: gbp(50_000), fee: gbp(0) })).toMatchObject({
      refund: { currency: 'USD', amount_minor: 65_000 },
      fee: { currency: 'USD', amount_minor: 0 },
    });
    expect(shownQuote(booking, {})).toEqual({});
  });

  it('a fee alone (a reissue) converts at the booking rate to a payable amount, uncapped by the total', () => {
    expect(shownQuote(booking, { fee: gbp(80_001) }).fee).toEqual({ currency: 'USD', amount_minor: 100_001 });
    const kwd = { ...booking, pricing: { currency: 'KWD', total_minor: 200_000 } as never, fx_rate: 0.38 };
    // 12.34 GBP at 0.38 is 4.6892 KWD: 4.690, in whole 10 fils.
    expect(shownQuote(kwd, { fee: gbp(1_234) }).fee).toEqual({ currency: 'KWD', amount_minor: 4_690 });
    // A fee in a third currency has no rate on the booking: it stays as the supplier quoted it.
    expect(shownQuote(booking, { fee: { amount_minor: 900, currency: 'EUR' } }).fee).toEqual({
      amount_minor: 900,
      currency: 'EUR',
    });
  });
});
