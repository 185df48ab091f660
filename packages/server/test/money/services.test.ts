/**
 * Paid service changes (seats issue, ancillary purchase, EMD) on Amadeus: ten parallel seat issuances
 * with distinct keys give one effect at the emulator and in our tables; an answer lost after the supplier
 * acted (the emulator's `when: 'after'` faults) is 202 pending, never a failure, and the `money.reconcile`
 * job (on the manual clock) reads the order back and settles it; a same-key retry then answers the settled
 * result. An answer lost before the supplier acted settles as "nothing happened" and the key runs anew.
 */
import { describe, expect, it } from 'vitest';
import { bookingDb } from '../../src/domains/flight-booking/tables.ts';
import { check } from '../booking/checks.ts';
import { B, type Booked, booked, drainJobs, expectOneWinner, ops, race, useMoneyWorld } from './world.ts';

const ctx = useMoneyWorld();
const amadeus = () => {
  const st = ctx.w.mocks.states.amadeus;
  if (!st) throw new Error('no amadeus emulator');
  return st;
};

async function orderOf(b: Booked) {
  const row = await bookingDb(ctx.w.database.db)
    .selectFrom('flight_bookings')
    .select('supplier_order_ref')
    .where('id', '=', b.id)
    .executeTakeFirstOrThrow();
  const o = amadeus().orders.get(row.supplier_order_ref as string);
  if (!o) throw new Error('order not at the emulator');
  return o;
}

/** Chooses one chargeable seat per segment for the first passenger: left pending at the supplier. */
async function pendingPaidSeats(b: Booked): Promise<number> {
  const map = await b.as('GET', `${B(b.id)}/seats`);
  expect(map.status, JSON.stringify(map.body)).toBe(200);
  const got = await b.as('GET', B(b.id));
  const pid = String(got.body.passengers[0].passenger_id);
  const seats = map.body.seat_maps.map((m: any) => {
    const seat = m.rows
      .filter((r: any) => r.row !== 13)
      .flatMap((r: any) => r.seats)
      .find((x: any) => x.available && x.chargeable);
    expect(seat).toBeDefined();
    return { segment_id: m.segment_id, seat_number: seat.seat_number, passenger_id: pid };
  });
  const r = await b.as('POST', `${B(b.id)}/seats/batch`, { key: `seats-${b.id}`, body: { seats } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.results.every((x: any) => x.status === 'pending')).toBe(true);
  return seats.length;
}

const seatRows = (id: number) =>
  bookingDb(ctx.w.database.db)
    .selectFrom('booking_seat_selections')
    .select(['seat_number', 'status'])
    .where('booking_id', '=', id)
    .execute();
const ancillaryRows = (id: number) =>
  bookingDb(ctx.w.database.db)
    .selectFrom('booking_ancillaries')
    .select(['tsm_reference', 'status', 'emd_number'])
    .where('booking_id', '=', id)
    .orderBy('id')
    .execute();
const audits = (id: number) =>
  ctx.w.database.db
    .selectFrom('audit_log')
    .select(['action', 'reason'])
    .where('entity_type', '=', 'booking')
    .where('entity_id', '=', String(id))
    .execute();

async function product(b: Booked) {
  const cat = await b.as('GET', `${B(b.id)}/ancillaries/catalogue`);
  expect(cat.status, JSON.stringify(cat.body)).toBe(200);
  const item = cat.body.items[0];
  const got = await b.as('GET', B(b.id));
  return {
    code: item.code,
    rfic: item.rfic,
    rfisc: item.rfisc,
    booking_method: item.booking_method,
    provider: item.provider,
    customer_ref_ids: [String(got.body.passengers[0].passenger_id)],
    segment_ref_ids: String(got.body.flights[0].segment_id),
  };
}

describe('seats issue', () => {
  it('ten parallel issuances with distinct keys: priced and issued once', async () => {
    const b = await booked(ctx.w);
    const n = await pendingPaidSeats(b);
    const rs = await race(10, (i) =>
      b.as('POST', `${B(b.id)}/seats/issue`, { key: `race-seat-${b.id}-${i}` }),
    );
    expectOneWinner(rs, ['no_pending_seats']);
    const won = rs.find((r) => r.status === 200);
    check('issueSeats', won as never);
    expect(won?.body.emds).toHaveLength(n);
    const o = await orderOf(b);
    expect(o.seats.filter((s) => s.status === 'CONFIRMED' && s.emdNumber)).toHaveLength(n);
    expect(new Set(o.seats.map((s) => s.emdNumber)).size).toBe(n);
    expect((await seatRows(b.id)).map((s) => s.status)).toEqual(Array(n).fill('confirmed'));
    expect((await ops(ctx.w, b.id)).filter((x) => x.kind === 'seats_issue').map((x) => x.status)).toEqual([
      'done',
    ]);
  });

  it('5xx after the supplier issued: 202 pending, settled confirmed by the job; the same key answers the settled result', async () => {
    const b = await booked(ctx.w);
    const n = await pendingPaidSeats(b);
    amadeus().armFault('5xx', { path: '/seats/issuance', when: 'after' });
    const key = `amb-seat-${b.id}`;
    const r = await b.as('POST', `${B(b.id)}/seats/issue`, { key });
    check('issueSeats', r, 202);
    expect(r.body).toMatchObject({ booking_id: b.id, operation: 'seats_issue', outcome: 'pending' });
    expect((await seatRows(b.id)).map((s) => s.status)).toEqual(Array(n).fill('pending'));
    const other = await b.as('POST', `${B(b.id)}/seats/issue`, { key: `${key}-other` });
    expect([other.status, other.body.code]).toEqual([409, 'operation_in_progress']);

    await drainJobs(ctx.w, 2, 5_000);
    const o = await orderOf(b);
    expect(o.seats.filter((s) => s.status === 'CONFIRMED')).toHaveLength(n);
    expect((await seatRows(b.id)).map((s) => s.status)).toEqual(Array(n).fill('confirmed'));
    expect((await ops(ctx.w, b.id)).map((x) => [x.kind, x.status])).toEqual([['seats_issue', 'done']]);
    const again = await b.as('POST', `${B(b.id)}/seats/issue`, { key });
    check('issueSeats', again);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.emds.map((e: any) => e.emd_number).sort()).toEqual(
      o.seats.map((s) => s.emdNumber).sort(),
    );
  });
});

describe('ancillary purchase', () => {
  it('reset after the supplier created the service: 202, then held once with its TSM; the same key answers it', async () => {
    const b = await booked(ctx.w);
    const p = await product(b);
    amadeus().armFault('reset', { path: '/services', when: 'after' });
    const key = `amb-anc-${b.id}`;
    const r = await b.as('POST', `${B(b.id)}/ancillaries/purchase`, { key, body: { products: [p] } });
    check('purchaseAncillaries', r, 202);
    expect(r.body).toMatchObject({ operation: 'ancillary_purchase', outcome: 'pending' });
    expect(await ancillaryRows(b.id)).toHaveLength(0);

    await drainJobs(ctx.w, 2, 5_000);
    const o = await orderOf(b);
    expect(o.ancillaries).toHaveLength(1);
    const rows = await ancillaryRows(b.id);
    expect(rows.map((x) => [x.tsm_reference, x.status])).toEqual([[o.ancillaries[0]?.tsmReference, 'held']]);
    const again = await b.as('POST', `${B(b.id)}/ancillaries/purchase`, { key, body: { products: [p] } });
    check('purchaseAncillaries', again);
    expect(again.body.tsm_references).toEqual([o.ancillaries[0]?.tsmReference]);
    expect(amadeus().orders.get(o.id)?.ancillaries).toHaveLength(1);
  });

  it('5xx before the supplier acted: 202, then settled as nothing bought (audited); the same key runs anew', async () => {
    const b = await booked(ctx.w);
    const p = await product(b);
    amadeus().armFault('5xx', { path: '/services', when: 'before' });
    const key = `amb-anc0-${b.id}`;
    const r = await b.as('POST', `${B(b.id)}/ancillaries/purchase`, { key, body: { products: [p] } });
    check('purchaseAncillaries', r, 202);
    await drainJobs(ctx.w, 4, 5_000);
    expect((await orderOf(b)).ancillaries).toHaveLength(0);
    expect((await ops(ctx.w, b.id)).map((x) => x.status)).toEqual(['failed']);
    expect((await audits(b.id)).map((a) => a.action)).toContain('ancillary_purchase_unconfirmed');
    const again = await b.as('POST', `${B(b.id)}/ancillaries/purchase`, { key, body: { products: [p] } });
    check('purchaseAncillaries', again);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await orderOf(b)).ancillaries).toHaveLength(1);
    expect(await ancillaryRows(b.id)).toHaveLength(1);
  });
});

describe('EMD issuance', () => {
  it('5xx after the supplier issued: 202, then issued with the supplier EMD number', async () => {
    const b = await booked(ctx.w);
    const p = await product(b);
    const bought = await b.as('POST', `${B(b.id)}/ancillaries/purchase`, {
      key: `buy-${b.id}`,
      body: { products: [p] },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    amadeus().armFault('5xx', { path: '/emds', when: 'after' });
    const key = `amb-emd-${b.id}`;
    const r = await b.as('POST', `${B(b.id)}/ancillaries/emd`, { key, body: {} });
    check('issueAncillaryEmds', r, 202);
    expect((await ancillaryRows(b.id)).map((x) => x.status)).toEqual(['held']);

    await drainJobs(ctx.w, 2, 5_000);
    const emd = (await orderOf(b)).ancillaries[0]?.emdNumber;
    expect(emd).toMatch(/^\d+$/);
    expect((await ancillaryRows(b.id)).map((x) => [x.status, x.emd_number])).toEqual([['issued', emd]]);
    const again = await b.as('POST', `${B(b.id)}/ancillaries/emd`, { key, body: {} });
    check('issueAncillaryEmds', again);
    expect(again.body.emds).toEqual([{ tsm_reference: bought.body.tsm_references[0], emd_number: emd }]);
  });
});
