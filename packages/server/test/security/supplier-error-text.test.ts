/**
 * Issue 13 §1 (third point): a supplier's own error text (which may echo its paths, ids or internals) is
 * not reflected to callers. A flight supplier's refusal of createPnr answers our code and our sentence;
 * `supplierFailure` (the mapping ticketing, ancillaries, orders, FOID and pricing share) answers our
 * sentence and keeps the supplier's words for the log and the error's cause.
 */
import { describe, expect, it } from 'vitest';
import { supplierFailure } from '../../src/domains/flight-booking/suppliers.ts';
import { HttpError } from '../../src/kernel/errors.ts';
import type { Logger } from '../../src/kernel/types.ts';
import { SupplierError } from '../../src/suppliers/ports/errors.ts';
import { refused, useWorld } from '../booking/checks.ts';
import { contact, passenger, pickBookable, SANDBOX_ROUTES } from '../booking/harness.ts';

const ctx = useWorld();

/** What each flight emulator says when it rejects a sell (mock-server READMEs): none of it may reach us. */
const SUPPLIER_WORDS = {
  amadeus: ['SEGMENT SELL FAILURE', 'Could not sell segment', '34651'],
  duffel: ['Airline rejected the booking', 'unable to confirm', 'airline_rejected'],
  mystifly: ['ERBUK042', 'UNABLE TO CONFIRM', 'rejected by the airline'],
} as const;
/** What our supplier clients put in a SupplierError's message: the request path and the HTTP status. */
const CLIENT_WORDS = ['/v1/', '/v2/', '/api/', '/air/', 'HTTP 4', 'HTTP 5'];

async function bookable(supplier: 'amadeus' | 'duffel' | 'mystifly') {
  const companyId = await ctx.w.company();
  const agent = await ctx.w.user({ companyId });
  const hit = pickBookable(supplier, await ctx.w.seedOffers(supplier, { userId: agent.id, companyId }));
  if (!hit) throw new Error(`no bookable ${supplier} offer`);
  return { agent, offerId: hit.offer_id, currency: SANDBOX_ROUTES[supplier].currency };
}

describe('supplier error text is not answered', () => {
  for (const supplier of ['amadeus', 'duffel', 'mystifly'] as const) {
    it(`${supplier}: a REJECT on createPnr answers 400 supplier_rejected in our words`, async () => {
      const { agent, offerId, currency } = await bookable(supplier);
      const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
        token: agent.token,
        key: `words-${supplier}`,
        body: { offer_id: offerId, currency, passengers: [passenger('REJECT')], contact },
      });
      refused('createPnr', r, 'supplier_rejected');
      expect(r.body.detail).toBe('The supplier rejected the reservation.');
      const text = JSON.stringify(r.body);
      for (const w of [...SUPPLIER_WORDS[supplier], ...CLIENT_WORDS]) expect(text).not.toContain(w);
    });
  }

  it('supplierFailure: our sentence to the caller, the supplier’s message to the log and the cause', () => {
    const secret = 'GET /internal/v9/orders/123?apikey=leak failed: stack at Foo.bar';
    const logged: unknown[] = [];
    const log = { warn: (o: unknown) => logged.push(o) } as unknown as Logger;
    for (const kind of ['rejected', 'unsupported', 'not_found'] as const) {
      let thrown: unknown;
      try {
        supplierFailure(
          new SupplierError('amadeus', kind, secret, { supplierCode: 'X1' }),
          {
            failed: 'order_retrieval_failed',
            unsupported: 'foid_unsupported',
            notFound: 'order_not_found',
          },
          log,
        );
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(HttpError);
      expect((thrown as HttpError).message).not.toContain('internal');
      expect(((thrown as HttpError).cause as Error).message).toBe(secret);
    }
    expect(logged).toHaveLength(3);
    expect(JSON.stringify(logged)).toContain('apikey=leak');
  });
});
