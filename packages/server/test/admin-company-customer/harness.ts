/** The app with the real contract and the admin/company/customer routes, plus fixtures for bookings and payments. */
import { expect } from 'vitest';
import { adminRoutes } from '../../src/domains/admin/routes.ts';
import { companyRoutes } from '../../src/domains/company/routes.ts';
import { customerRoutes } from '../../src/domains/customer/routes.ts';
import type { BookingSuppliers } from '../../src/domains/flight-booking/suppliers.ts';
import { bookingDb, json } from '../../src/domains/flight-booking/tables.ts';
import type { PaymentProvider } from '../../src/suppliers/ports/payment.ts';
import { createTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';

export interface Harness extends TestApp {
  refunds: { ref: string; amount: number | undefined; key: string }[];
  booking(o: {
    userId: string;
    companyId: number | null;
    status?: string;
    email?: string;
    total?: number;
    currency?: string;
    origin?: string;
    destination?: string;
    deadline?: Date;
  }): Promise<number>;
  payment(
    bookingId: number,
    o?: { state?: string; amount?: number; captured?: number; currency?: string },
  ): Promise<number>;
}

export async function harness(): Promise<Harness> {
  const refunds: Harness['refunds'] = [];
  const provider = {
    name: 'stripe',
    async refund(
      ref: string,
      amount: number | undefined,
      _reason: string | undefined,
      opts: { idempotencyKey: string },
    ) {
      refunds.push({ ref, amount, key: opts.idempotencyKey });
      return { refund_ref: `re_${refunds.length}`, amount_minor: amount ?? 0, payment: {} };
    },
  } as unknown as PaymentProvider;
  const suppliers: BookingSuppliers = { flight: () => undefined, payments: () => provider };
  const contract = realContract();
  if (!contract) throw new Error('openapi.json missing');
  const t = await createTestApp({
    contract,
    routes: (s) => {
      const deps = { ...s, suppliers };
      return { ...adminRoutes(deps), ...companyRoutes(deps), ...customerRoutes(deps) };
    },
  });
  let seq = 0;
  const booking: Harness['booking'] = async (o) => {
    seq += 1;
    const currency = o.currency ?? 'GBP';
    const total = o.total ?? 10000;
    const r = await bookingDb(t.database.db)
      .insertInto('flight_bookings')
      .values({
        pnr: `PN${String(seq).padStart(4, '0')}`,
        status: o.status ?? 'confirmed',
        payment_mode: 'PNR_FIRST',
        supplier: 'duffel',
        supplier_order_ref: `ord_${seq}`,
        client_reference: `cr-${seq}-${Math.random()}`,
        offer_id: `off_${seq}`,
        offer: json({}),
        passengers: json([
          {
            passenger_id: '1',
            type: 'ADT',
            first_name: 'Ada',
            last_name: 'Lovelace',
            gender: 'F',
            date_of_birth: '1990-01-01',
          },
        ]),
        contact: json({ email: o.email ?? 'ada@example.org', phone: '+447700900123' }),
        flights: json([
          {
            segment_id: 's1',
            marketing_carrier: 'BA',
            operating_carrier: 'BA',
            flight_number: '107',
            origin: o.origin ?? 'LHR',
            destination: o.destination ?? 'DXB',
            departure_at: '2026-12-20T10:00:00',
            arrival_at: '2026-12-20T20:00:00',
            duration_minutes: 420,
            cabin: 'Economy',
            booking_class: 'Y',
            aircraft: null,
          },
        ]),
        pricing: json({
          currency,
          base_minor: total - 2000,
          taxes_minor: 1500,
          markup_minor: 500,
          bags_minor: 0,
          total_minor: total,
        }),
        ticketing_deadline: o.deadline ?? null,
        user_id: o.userId,
        company_id: o.companyId,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  };
  const payment: Harness['payment'] = async (bookingId, o = {}) => {
    const amount = o.amount ?? 10000;
    const r = await bookingDb(t.database.db)
      .insertInto('booking_payments')
      .values({
        booking_id: bookingId,
        state: o.state ?? 'CAPTURED',
        amount_minor: amount,
        captured_minor: o.captured ?? amount,
        refunded_minor: 0,
        currency: o.currency ?? 'GBP',
        provider: 'stripe',
        provider_payment_ref: `pi_${bookingId}`,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  };
  return Object.assign(t, { refunds, booking, payment });
}

/** Asserts the status and that the body is what the contract declares for the operation. */
export function expectOp(op: string, res: TestResponse, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectMatchesContract(op, res.status, res.body);
  return res.body;
}
