/**
 * The supplier call store's writes (observability/supplier-call-store.ts): the calls handed to its sink
 * while an insert is in flight go together in the next one, so concurrent bookings cost one statement
 * between them, not one each (issue 31, createPnr/s); every call is stored under its booking, in the
 * order handed over; a failed insert is logged and does not stop the ones after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupplierCallRecord } from '../../src/observability/call-scope.ts';
import { SupplierCallStore } from '../../src/observability/supplier-call-store.ts';
import { type TestDatabase, testDatabase } from '../helpers/db.ts';

const statements: string[] = [];
let database: TestDatabase;
beforeAll(async () => {
  database = await testDatabase({
    onStatement: (sqlText) => {
      if (/insert into "supplier_calls"/.test(sqlText)) statements.push(sqlText);
    },
  });
});
afterAll(() => database?.close());

const call = (operation: string, at: number): SupplierCallRecord => ({
  supplier: 'amadeus',
  operation,
  outcome: 'ok',
  httpStatus: 201,
  attempts: 1,
  durationMs: 3,
  startedAt: new Date(Date.UTC(2026, 10, 29, 5, 0, 0, at)),
  requestId: `req-${operation}`,
  jobId: null,
  traceId: null,
  requestExcerpt: '{"offer":"x"}',
  responseExcerpt: '{"pnr":"ABC123"}',
});

describe('supplier call store writes', () => {
  it('stores the calls of concurrent bookings in fewer inserts than bookings, each under its booking, in order', async () => {
    const warnings: unknown[] = [];
    const store = new SupplierCallStore(database.db, { warn: (o: unknown) => warnings.push(o) } as never);
    statements.length = 0;
    const bookings = Array.from({ length: 20 }, (_, i) => 1000 + i);
    // The first hand-over starts an insert; the rest arrive while it runs (as concurrent requests do).
    for (const id of bookings) store.sink(id, [call(`createOrder-${id}`, 1), call(`retrieve-${id}`, 2)]);
    await store.settled();
    expect(statements.length).toBeGreaterThanOrEqual(1);
    expect(statements.length).toBeLessThan(bookings.length);
    for (const id of bookings) {
      const stored = await store.forBooking(id);
      expect(stored.map((c) => c.operation)).toEqual([`createOrder-${id}`, `retrieve-${id}`]);
      expect(stored[0]).toMatchObject({
        supplier: 'amadeus',
        outcome: 'ok',
        httpStatus: 201,
        requestId: `req-createOrder-${id}`,
        responseExcerpt: '{"pnr":"ABC123"}',
      });
    }
    // Ids follow the order the calls were handed over.
    const ids = (await Promise.all(bookings.map((id) => store.forBooking(id)))).flat().map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(warnings).toEqual([]);
  });

  it('a call handed over after the writes settled is written and read back (forBooking waits for it)', async () => {
    const store = new SupplierCallStore(database.db);
    store.sink(2000, [call('authorize', 1)]);
    expect((await store.forBooking(2000)).map((c) => c.operation)).toEqual(['authorize']);
    store.sink(2000, [call('capture', 2)]);
    expect((await store.forBooking(2000)).map((c) => c.operation)).toEqual(['authorize', 'capture']);
  });

  it('a failed insert is logged with its bookings and the next calls are still written', async () => {
    const warnings: Record<string, unknown>[] = [];
    const store = new SupplierCallStore(database.db, {
      warn: (o: Record<string, unknown>) => warnings.push(o),
    } as never);
    // A NUL byte in a text value is refused by PostgreSQL and PGlite alike: the whole insert fails.
    store.sink(3000, [{ ...call('createOrder', 1), supplier: 'bad\u0000name' }]);
    await store.settled();
    store.sink(3001, [call('createOrder', 1)]);
    await store.settled();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ booking_id: 3000, booking_ids: [3000], calls: 1 });
    expect(await store.forBooking(3000)).toEqual([]);
    expect((await store.forBooking(3001)).map((c) => c.operation)).toEqual(['createOrder']);
  });
});
