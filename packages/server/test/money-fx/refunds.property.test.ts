/**
 * Issue 17, property: whatever partial refunds are asked for, in whatever currency, the platform never
 * refunds more than was captured, every refund it makes is one the payment provider accepts (three-decimal
 * currencies in steps of 10), and the provider's refunds add up to exactly what the booking says.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPayable } from '../../src/internal/money.ts';
import { type FxWorld, futureDate, fxWorld, type Json } from './world.ts';

let w: FxWorld;
beforeAll(async () => {
  w = await fxWorld();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

let run = 0;

it('refunds never exceed captures, and the provider’s refunds equal the booking’s', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GBP', 'USD', 'KWD', 'BHD', 'OMR', 'PKR'),
      // Each asked-for refund as a fraction of the capture (some over what is left), plus a raw offset
      // that may make it a non-payable amount for a three-decimal currency.
      fc.array(
        fc.record({
          share: fc.double({ min: 0.01, max: 1.2, noNaN: true }),
          nudge: fc.integer({ min: 0, max: 9 }),
        }),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
      async (currency, asks) => {
        run += 1;
        const { offers } = await w.search('flight', {
          currency,
          adults: 1,
          journeyType: 'OneWay',
          cabinClass: 'Economy',
          sources: ['duffel'],
          searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(100 + run) }],
        });
        const offer = offers.find((o) => !o.lcc && o.validating_carrier !== 'W6') as Json;
        const total = offer.price.total_minor as number;
        const b = (await w.book(offer.offer_id, currency, `prop-${run}-book`)).body;
        const auth = await w.req('POST', `/api/v1/bookings/${b.booking_id}/authorize`, {
          key: `prop-${run}-auth`,
          body: { token: 'tok_sandbox_ok', currency, amount_minor: total },
        });
        expect(auth.status, auth.text).toBe(200);
        const cap = await w.req('POST', `/api/v1/bookings/${b.booking_id}/payment/capture`, {
          key: `prop-${run}-cap`,
        });
        expect(cap.status, cap.text).toBe(200);
        let refunded = 0;
        for (const [i, a] of asks.entries()) {
          const amount = Math.max(1, Math.floor(total * a.share) + a.nudge);
          const r = await w.req(
            'POST',
            `/api/v1/bookings/${b.booking_id}/payment/refund?amount_minor=${amount}`,
            {
              key: `prop-${run}-refund-${i}`,
            },
          );
          if (r.status === 200) {
            refunded += amount;
            expect(isPayable(amount, currency)).toBe(true);
            expect(r.body.refunded_minor).toBe(refunded);
          } else {
            expect(r.status).toBe(400);
            // Refused: over what is left, or not an amount the provider takes in this currency.
            expect(amount > total - refunded || !isPayable(amount, currency)).toBe(true);
          }
          expect(refunded).toBeLessThanOrEqual(total);
        }
        const pi = w.stripeIntent(b.booking_id);
        const stripe = w.mocks.states.stripe as unknown as { refunds: Map<string, Json> };
        const theirs = [...stripe.refunds.values()]
          .filter((r) => r.payment_intent === pi.id && r.status === 'succeeded')
          .reduce((s, r) => s + (r.amount as number), 0);
        expect(theirs).toBe(refunded);
      },
    ),
    { numRuns: 8 },
  );
}, 180_000);
