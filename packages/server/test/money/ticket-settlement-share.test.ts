/**
 * What a confirmed void/refund gives back, decided from the supplier's quote and the payment's state:
 * the customer's share of the supplier refund (markup and conversion included), a released authorization,
 * or only the fee captured from an authorization.
 */
import { describe, expect, it } from 'vitest';
import type { PaymentRow } from '../../src/domains/payment/store.ts';
import { customerShare, decide } from '../../src/domains/payment/ticket-settlement.ts';

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
    expect(customerShare(60_000, { refund: money(50_000), fee: money(0) }, 50_000)).toBe(60_000);
    expect(customerShare(60_000, {}, 50_000)).toBe(60_000);
  });
  it('a refund keeping a fee gives back the same proportion of what the customer paid, rounded down', () => {
    // The supplier keeps 10 % in its own currency: the customer gets 90 % of the 600.00 GBP paid.
    expect(customerShare(60_000, { refund: money(45_000), fee: money(5_000) }, 50_000)).toBe(54_000);
    expect(customerShare(1001, { refund: money(1), fee: money(2) }, null)).toBe(333);
    // No fee given: the supplier total is the denominator.
    expect(customerShare(60_000, { refund: money(25_000) }, 50_000)).toBe(30_000);
  });
  it('a non-refundable fare gives nothing back', () => {
    expect(customerShare(60_000, { refund: money(0), fee: money(50_000) }, 50_000)).toBe(0);
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
