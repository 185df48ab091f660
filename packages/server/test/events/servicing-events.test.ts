/**
 * Issue 30: `servicing.updated`. Each stored servicing change (seats selected or issued, ancillaries
 * purchased, EMDs issued, ancillaries cancelled, a void/refund request left with a consolidator) writes
 * exactly one event in its transaction; an idempotent replay and a supplier call that fails write none;
 * a servicing completion that moves the booking writes its ticket.* event only.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bookingDb } from '../../src/domains/flight-booking/tables.ts';
import { check } from '../booking/checks.ts';
import { contact, passenger, SANDBOX_ROUTES } from '../booking/harness.ts';
import { B, type Booked, booked, drainJobs, useMoneyWorld } from '../money/world.ts';

const ctx = useMoneyWorld();

interface Row {
  type: string;
  company_id: number | null;
  resource_type: string;
  resource_id: string;
  resource_version: number;
  data: Record<string, any>;
  request_id: string | null;
  job_id: string | null;
}

async function events(since = 0): Promise<Row[]> {
  const r = await sql<Row>`select * from events order by txid, seq`.execute(ctx.w.database.db);
  return r.rows.slice(since).map((e) => ({
    ...e,
    data: typeof e.data === 'string' ? JSON.parse(e.data) : e.data,
  }));
}

/** Runs `fn`; returns its result and the events written meanwhile. */
async function emitted<T>(fn: () => Promise<T>): Promise<[T, Row[]]> {
  const before = (await events()).length;
  const r = await fn();
  return [r, await events(before)];
}

const servicing = (rows: Row[]) => rows.map((e) => [e.type, e.data.servicing]);

const amadeus = () => {
  const st = ctx.w.mocks.states.amadeus;
  if (!st) throw new Error('no amadeus emulator');
  return st;
};

/** A bookable product of the catalogue for the first passenger on the first segment. */
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

const seatRows = (id: number) =>
  bookingDb(ctx.w.database.db)
    .selectFrom('booking_seat_selections')
    .select(['seat_number', 'status'])
    .where('booking_id', '=', id)
    .execute();

describe('servicing.updated (amadeus seats and ancillaries)', () => {
  it('seat selection and issuance: one event each, the booking as read plus what changed; a refused seat and a replay none', async () => {
    const b = await booked(ctx.w);
    const map = await b.as('GET', `${B(b.id)}/seats`);
    expect(map.status, JSON.stringify(map.body)).toBe(200);
    const pid = String((await b.as('GET', B(b.id))).body.passengers[0].passenger_id);
    const m = map.body.seat_maps[0];
    const seats = m.rows.filter((r: any) => r.row !== 13).flatMap((r: any) => r.seats);
    const free = seats.find((x: any) => x.available && !x.chargeable);
    expect(free).toBeTruthy();

    // The airline refuses the seat (row 13 is blocked: an emulator trigger): nothing stored, no event.
    const [no, none] = await emitted(() =>
      b.as('POST', `${B(b.id)}/seats?segment_id=${m.segment_id}&seat_number=13C&passenger_id=${pid}`),
    );
    expect([no.status, no.body.code]).toEqual([400, 'seat_unavailable']);
    expect(none).toEqual([]);

    const [one, ev] = await emitted(() =>
      b.as(
        'POST',
        `${B(b.id)}/seats?segment_id=${m.segment_id}&seat_number=${free.seat_number}&passenger_id=${pid}`,
        { key: `sel-${b.id}` },
      ),
    );
    check('selectSeat', one);
    expect(servicing(ev)).toEqual([
      [
        'servicing.updated',
        { kind: 'seats', action: 'selected', ids: [`${m.segment_id}/${pid}/${free.seat_number}`] },
      ],
    ]);
    expect(ev[0]).toMatchObject({
      resource_type: 'booking',
      resource_id: String(b.id),
      request_id: one.headers.get('x-request-id'),
      job_id: null,
    });
    const { servicing: _s, ...booking } = ev[0]?.data ?? {};
    expect(booking).toEqual((await b.as('GET', B(b.id))).body);
    const [again, replayed] = await emitted(() =>
      b.as(
        'POST',
        `${B(b.id)}/seats?segment_id=${m.segment_id}&seat_number=${free.seat_number}&passenger_id=${pid}`,
        { key: `sel-${b.id}` },
      ),
    );
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed).toEqual([]);

    // Chargeable seats on every segment: selected (pending) in one event, then issued in one event.
    const paid = map.body.seat_maps.map((sm: any) => ({
      segment_id: sm.segment_id,
      passenger_id: pid,
      seat_number: sm.rows
        .filter((r: any) => r.row !== 13)
        .flatMap((r: any) => r.seats)
        .find((x: any) => x.available && x.chargeable).seat_number,
    }));
    const ids = paid.map((x: any) => `${x.segment_id}/${x.passenger_id}/${x.seat_number}`);
    const [batch, selected] = await emitted(() =>
      b.as('POST', `${B(b.id)}/seats/batch`, { key: `batch-${b.id}`, body: { seats: paid } }),
    );
    check('selectSeatsBatch', batch);
    expect(servicing(selected)).toEqual([['servicing.updated', { kind: 'seats', action: 'selected', ids }]]);
    const [issued, issuedEv] = await emitted(() =>
      b.as('POST', `${B(b.id)}/seats/issue`, { key: `issue-${b.id}` }),
    );
    check('issueSeats', issued);
    expect(servicing(issuedEv)).toEqual([['servicing.updated', { kind: 'seats', action: 'issued', ids }]]);
    const [, replay] = await emitted(() => b.as('POST', `${B(b.id)}/seats/issue`, { key: `issue-${b.id}` }));
    expect(replay).toEqual([]);
    // The booking's events follow one another.
    const mine = (await events()).filter((e) => e.resource_id === String(b.id));
    expect(mine.map((e) => e.resource_version)).toEqual(mine.map((_, i) => i + 1));
  });

  it('no change without its event: the event refused, the seat is not stored either', async () => {
    const b = await booked(ctx.w);
    const map = await b.as('GET', `${B(b.id)}/seats`);
    const m = map.body.seat_maps[0];
    const free = m.rows
      .filter((r: any) => r.row !== 13)
      .flatMap((r: any) => r.seats)
      .find((x: any) => x.available && !x.chargeable);
    const db = ctx.w.database.db;
    await sql`create function refuse_servicing() returns trigger language plpgsql as $$ begin raise exception 'events refused'; end $$`.execute(
      db,
    );
    await sql`create trigger refuse_servicing before insert on events for each row execute function refuse_servicing()`.execute(
      db,
    );
    try {
      const r = await b.as(
        'POST',
        `${B(b.id)}/seats?segment_id=${m.segment_id}&seat_number=${free.seat_number}&passenger_id=1`,
      );
      expect(r.status).toBe(500);
    } finally {
      await sql`drop trigger refuse_servicing on events`.execute(db);
      await sql`drop function refuse_servicing()`.execute(db);
    }
    expect(await seatRows(b.id)).toEqual([]);
  });

  it('purchase, EMD issuance and cancellation: one event each; a replay and a refused product none', async () => {
    const b = await booked(ctx.w);
    const p = await product(b);
    const [bad, none] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/purchase`, {
        key: `bad-${b.id}`,
        body: { products: [{ ...p, code: 'NOSUCH' }] },
      }),
    );
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(none).toEqual([]);

    const [bought, boughtEv] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/purchase`, { key: `buy-${b.id}`, body: { products: [p] } }),
    );
    check('purchaseAncillaries', bought);
    const aid = bought.body.ancillaries[0].ancillary_id as number;
    expect(servicing(boughtEv)).toEqual([
      ['servicing.updated', { kind: 'ancillaries', action: 'purchased', ids: [aid] }],
    ]);
    const [, replay] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/purchase`, { key: `buy-${b.id}`, body: { products: [p] } }),
    );
    expect(replay).toEqual([]);

    const [emd, emdEv] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/emd`, { key: `emd-${b.id}`, body: {} }),
    );
    check('issueAncillaryEmds', emd);
    expect(servicing(emdEv)).toEqual([['servicing.updated', { kind: 'emds', action: 'issued', ids: [aid] }]]);
    const [, emdReplay] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/emd`, { key: `emd-${b.id}`, body: {} }),
    );
    expect(emdReplay).toEqual([]);

    const [cx, cxEv] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/cancel`, { key: `cx-${b.id}`, body: {} }),
    );
    check('cancelAncillaries', cx);
    expect(cx.body.results).toEqual([{ ancillary_id: aid, outcome: 'voided', reason: null }]);
    expect(servicing(cxEv)).toEqual([
      ['servicing.updated', { kind: 'ancillaries', action: 'voided', ids: [aid] }],
    ]);
    // Nothing left to cancel: skipped, no event.
    const [, skipped] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/cancel`, { key: `cx2-${b.id}`, body: {} }),
    );
    expect(skipped).toEqual([]);
  });

  it('a lost answer: no event at 202; the job that reads the outcome back records the one event', async () => {
    const b = await booked(ctx.w);
    const p = await product(b);
    amadeus().armFault('reset', { path: '/services', when: 'after' });
    const [r, pending] = await emitted(() =>
      b.as('POST', `${B(b.id)}/ancillaries/purchase`, { key: `lost-${b.id}`, body: { products: [p] } }),
    );
    check('purchaseAncillaries', r, 202);
    expect(pending).toEqual([]);
    const [, settled] = await emitted(() => drainJobs(ctx.w, 2, 5_000));
    const ev = settled.filter((e) => e.type === 'servicing.updated');
    expect(ev).toHaveLength(1);
    expect(ev[0]?.data.servicing).toMatchObject({ kind: 'ancillaries', action: 'purchased' });
    expect(ev[0]?.job_id).toMatch(/.+/);
    expect(ev[0]?.request_id).toBeNull();

    // The supplier failed before acting: settled as nothing bought, no servicing event.
    const c = await booked(ctx.w);
    amadeus().armFault('5xx', { path: '/services', when: 'before' });
    const [r2] = await emitted(() =>
      c.as('POST', `${B(c.id)}/ancillaries/purchase`, { key: `fail-${c.id}`, body: { products: [p] } }),
    );
    check('purchaseAncillaries', r2, 202);
    const [, nothing] = await emitted(() => drainJobs(ctx.w, 4, 5_000));
    expect(nothing.filter((e) => e.type === 'servicing.updated')).toEqual([]);
  });
});

describe('servicing.updated (mystifly servicing requests)', () => {
  it('a raised void: one servicing.updated; its completion found by a read: ticket.voided only', async () => {
    const { currency } = SANDBOX_ROUTES.mystifly;
    const companyId = await ctx.w.company();
    const agent = await ctx.w.user({ companyId });
    const as = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
      ctx.w.req(method, path, { token: agent.token, ...o });
    const offers = await ctx.w.seedOffers('mystifly', { userId: agent.id, companyId });
    const hit = offers.find((o) => !o.offer.lcc && o.offer.refundable);
    expect(hit).toBeDefined();
    const created = await as('POST', '/api/v1/bookings/createPnr', {
      key: 'sv-myst-create',
      body: { offer_id: hit?.offer_id, currency, passengers: [passenger()], contact },
    });
    check('createPnr', created);
    const id = created.body.booking_id as number;
    const auth = await as('POST', `${B(id)}/authorize`, {
      key: 'sv-myst-auth',
      body: { token: 'tok_sandbox_ok', currency, amount_minor: created.body.pricing.total_minor },
    });
    check('authorizePayment', auth);
    check('issueTickets', await as('POST', `${B(id)}/ticket`, { key: 'sv-myst-ticket', body: {} }));
    let st = await as('GET', `${B(id)}/ticket/status`);
    for (let i = 0; i < 5 && !st.body.issued; i++) st = await as('GET', `${B(id)}/ticket/status`);
    expect(st.body.issued).toBe(true);

    // A quote stores nothing.
    const [, quoted] = await emitted(() => as('POST', `${B(id)}/ticket/void`));
    expect(quoted).toEqual([]);

    const [c, raised] = await emitted(() =>
      as('POST', `${B(id)}/ticket/void?confirm=true`, { key: 'sv-myst-void' }),
    );
    check('performTicketAction', c);
    expect(c.body).toMatchObject({ determination: 'request_raised', booking_status: 'ticketed' });
    expect(servicing(raised)).toEqual([
      [
        'servicing.updated',
        {
          kind: 'servicing_request',
          action: 'requested',
          type: 'void',
          ids: [c.body.servicing_request_id],
        },
      ],
    ]);
    expect(raised[0]?.data.status).toBe('ticketed');
    const [again, replayed] = await emitted(() =>
      as('POST', `${B(id)}/ticket/void?confirm=true`, { key: 'sv-myst-void' }),
    );
    expect(again.body.servicing_request_id).toBe(c.body.servicing_request_id);
    expect(replayed).toEqual([]);

    // Reads follow the request to Completed: the booking moves, and that move is the one event.
    const [, done] = await emitted(async () => {
      for (let i = 0; i < 5 && (await as('GET', B(id))).body.status === 'ticketed'; i++)
        check('listServicingRequests', await as('GET', `${B(id)}/servicing`));
    });
    expect((await as('GET', B(id))).body.status).toBe('cancelled');
    expect(done.map((e) => e.type)).toEqual(['ticket.voided']);
  });
});
