/**
 * Issue 30, schedule changes end to end per supplier: the airline moves a booked flight (the emulator's
 * SCHEDULECHANGE trigger or its `changeSchedule` knob; Duffel, Amadeus and Mystifly), the order-refresh job finds it and records it with
 * its event, the agency lists and accepts it (Duffel: the airline-initiated change is accepted at the
 * supplier), and the booking's flights become the new ones. Accepting is idempotent; another company's
 * caller sees nothing.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { changeMystiflySchedule } from '../../../mock-server/src/index.ts';
import type { BookingDeps } from '../../src/domains/flight-booking/deps.ts';
import {
  SCHEDULE_CHANGE_QUEUE,
  scanScheduleChanges,
  scheduleChangeJobHandlers,
} from '../../src/domains/flight-booking/schedule-changes/index.ts';
import { check, refused, useWorld } from '../booking/checks.ts';
import { contact, passenger, pickBookable, SANDBOX_ROUTES } from '../booking/harness.ts';

const ctx = useWorld();

const deps = (): BookingDeps => ({
  db: ctx.w.database.db,
  clock: ctx.w.clock,
  mailer: ctx.w.mailer,
  suppliers: ctx.w.suppliers,
});

async function eventsOf(bookingId: number) {
  const r = await sql<{ type: string; resource_version: number; data: unknown; job_id: string | null }>`
    select type, resource_version, data, job_id from events
    where resource_type = 'booking' and resource_id = ${String(bookingId)} order by txid, seq`.execute(
    ctx.w.database.db,
  );
  return r.rows.map((e) => ({
    ...e,
    data: (typeof e.data === 'string' ? JSON.parse(e.data) : e.data) as Record<string, any>,
  }));
}

/** `2026-12-20T09:35:00` + minutes, in the same local form. */
const plus = (local: string, minutes: number) =>
  new Date(Date.parse(`${local}Z`) + minutes * 60_000).toISOString().slice(0, 19);

async function bookFor(supplier: 'duffel' | 'amadeus' | 'mystifly', last: string) {
  const companyId = await ctx.w.company();
  const agent = await ctx.w.user({ role: 'company_staff', companyId });
  const offers = await ctx.w.seedOffers(supplier, { userId: agent.id, companyId });
  const hit = pickBookable(supplier, offers);
  if (!hit) throw new Error('no bookable offer');
  const as = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
    ctx.w.req(method, path, { token: agent.token, ...o });
  const created = await as('POST', '/api/v1/bookings/createPnr', {
    key: `sc-${Math.random()}`,
    body: {
      offer_id: hit.offer_id,
      currency: SANDBOX_ROUTES[supplier].currency,
      passengers: [passenger(last)],
      contact,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { as, booking: created.body as Record<string, any>, companyId };
}

describe.each(['duffel', 'amadeus', 'mystifly'] as const)('schedule changes on %s', (supplier) => {
  it('trigger -> detection -> event -> accept, idempotent, tenant-scoped', async () => {
    const { as, booking } = await bookFor(supplier, 'SCHEDULECHANGE');
    const id = booking.booking_id as number;
    const booked = booking.flights as Record<string, any>[];
    const B = `/api/v1/bookings/${id}`;

    const first = await scanScheduleChanges(deps());
    expect(first.changed).toBeGreaterThanOrEqual(1);
    const listed = await as('GET', `${B}/schedule-changes`);
    check('listBookingScheduleChanges', listed);
    expect(listed.body.data).toHaveLength(1);
    const change = listed.body.data[0];
    expect(change).toMatchObject({ booking_id: id, status: 'pending', supplier, accepted_at: null });
    expect(change.old_segments).toEqual(booked);
    // The trigger moves the outbound 95 minutes later; ids, cabin and class stay the booking's.
    const outbound = change.new_segments[0];
    expect(outbound.segment_id).toBe(booked[0]?.segment_id);
    expect(outbound.departure_at).toBe(plus(booked[0]?.departure_at, 95));
    expect(outbound.arrival_at).toBe(plus(booked[0]?.arrival_at, 95));
    if (supplier === 'duffel') expect(change.supplier_change_id).toMatch(/^aic_/);
    else expect(change.supplier_change_id).toBeNull();

    let events = await eventsOf(id);
    const detected = events.filter((e) => e.type === 'schedule_change.detected');
    expect(detected).toHaveLength(1);
    expect(detected[0]?.data.schedule_change).toEqual(change);
    expect(detected[0]?.data.flights).toEqual(booked);

    // Found again by the next run: nothing new, no second event.
    await scanScheduleChanges(deps());
    expect((await as('GET', `${B}/schedule-changes`)).body.data).toHaveLength(1);
    expect((await eventsOf(id)).length).toBe(events.length);

    // Still as booked until accepted.
    expect((await as('GET', B)).body.flights).toEqual(booked);

    const url = `${B}/schedule-changes/${change.id}/accept`;
    const accepted = await as('POST', url, { key: 'accept-1', body: {} });
    check('acceptBookingScheduleChange', accepted);
    expect(accepted.body).toMatchObject({ id: change.id, status: 'accepted' });
    expect(accepted.body.accepted_at).not.toBeNull();
    expect(accepted.body.new_segments).toEqual(change.new_segments);
    expect((await as('GET', B)).body.flights).toEqual(change.new_segments);
    events = await eventsOf(id);
    const acceptedEvents = events.filter((e) => e.type === 'schedule_change.accepted');
    expect(acceptedEvents).toHaveLength(1);
    expect(acceptedEvents[0]?.data.flights).toEqual(change.new_segments);
    expect(acceptedEvents[0]?.data.schedule_change.status).toBe('accepted');
    if (supplier === 'duffel') {
      const order = ctx.w.mocks.states.duffel?.orders.get(booking.supplier_order_ref);
      const aic = (order?.order.airline_initiated_changes as Record<string, unknown>[] | undefined)?.[0];
      expect(aic).toMatchObject({ id: change.supplier_change_id, action_taken: 'accepted' });
    }

    // The same key replays the answer; a new key finds it accepted: 200, no second effect.
    const replay = await as('POST', url, { key: 'accept-1', body: {} });
    expect([replay.status, replay.body]).toEqual([200, accepted.body]);
    const again = await as('POST', url, { key: 'accept-2', body: {} });
    expect([again.status, again.body]).toEqual([200, accepted.body]);
    expect((await eventsOf(id)).length).toBe(events.length);

    // The booking now matches the airline: the next run finds nothing.
    expect((await scanScheduleChanges(deps())).changed).toBe(0);

    refused(
      'acceptBookingScheduleChange',
      await as('POST', `${B}/schedule-changes/sc_unknown/accept`, { body: {} }),
      'schedule_change_not_found',
      404,
    );

    // Another company's staff: exactly what a missing booking answers.
    const other = await ctx.w.user({ role: 'company_staff', companyId: await ctx.w.company() });
    const theirs = (m: string, p: string) => ctx.w.req(m, p, { token: other.token, body: {} });
    refused(
      'listBookingScheduleChanges',
      await theirs('GET', `${B}/schedule-changes`),
      'booking_not_found',
      404,
    );
    refused('acceptBookingScheduleChange', await theirs('POST', url), 'booking_not_found', 404);
  });

  it('a later change supersedes a pending one; only the newest can be accepted', async () => {
    const { as, booking } = await bookFor(supplier, 'RAHMAN');
    const id = booking.booking_id as number;
    const ref = booking.supplier_order_ref as string;
    const B = `/api/v1/bookings/${id}`;
    expect((await scanScheduleChanges(deps())).changed).toBe(0);

    const { duffel, amadeus, mystifly } = ctx.w.mocks.states;
    const knob = (spec: { minutes: number; flightNumber?: string }) => {
      if (supplier === 'duffel') duffel?.changeSchedule(ref, spec);
      else if (supplier === 'amadeus') amadeus?.changeSchedule(ref, spec);
      else if (mystifly) changeMystiflySchedule(mystifly, ref, spec);
    };
    knob({ minutes: -40 });
    await scanScheduleChanges(deps());
    knob({ minutes: 10, flightNumber: '7001' });
    await scanScheduleChanges(deps());

    const list = (await as('GET', `${B}/schedule-changes`)).body.data as Record<string, any>[];
    expect(list.map((c) => c.status)).toEqual(['pending', 'superseded']);
    const [newest, older] = list as [Record<string, any>, Record<string, any>];
    expect(newest.new_segments[0].flight_number).toBe('7001');
    expect(newest.new_segments[0].departure_at).toBe(plus(booking.flights[0].departure_at, -30));
    refused(
      'acceptBookingScheduleChange',
      await as('POST', `${B}/schedule-changes/${older.id}/accept`, { body: {} }),
      'schedule_change_superseded',
    );
    const ok = await as('POST', `${B}/schedule-changes/${newest.id}/accept`, { body: {} });
    check('acceptBookingScheduleChange', ok);
    expect((await as('GET', B)).body.flights[0].flight_number).toBe('7001');
    if (supplier === 'duffel') {
      // Accepting the schedule as it is now answers every change the airline made up to it.
      const order = duffel?.orders.get(ref)?.order;
      const changes = (order?.airline_initiated_changes ?? []) as { action_taken: string | null }[];
      const actions = changes.map((c) => c.action_taken);
      expect(actions).toEqual(['accepted', 'accepted']);
    }
  });
});

describe('refresh on request', () => {
  it('re-reads the order now and records the change under the request that found it', async () => {
    const { as, booking } = await bookFor('duffel', 'BABBAGE');
    const id = booking.booking_id as number;
    const B = `/api/v1/bookings/${id}`;
    const none = await as('POST', `${B}/schedule-changes/refresh`, { body: {} });
    check('refreshBookingScheduleChanges', none);
    expect(none.body.data).toEqual([]);

    ctx.w.mocks.states.duffel?.changeSchedule(booking.supplier_order_ref, { minutes: 45 });
    const found = await as('POST', `${B}/schedule-changes/refresh`, { body: {} });
    check('refreshBookingScheduleChanges', found);
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0].new_segments[0].departure_at).toBe(plus(booking.flights[0].departure_at, 45));
    const events = await sql<{ type: string; request_id: string | null }>`
      select type, request_id from events where resource_id = ${String(id)} and type = 'schedule_change.detected'`.execute(
      ctx.w.database.db,
    );
    expect(events.rows).toEqual([
      { type: 'schedule_change.detected', request_id: found.headers.get('x-request-id') },
    ]);
    // Again: the same change, not a second one.
    expect((await as('POST', `${B}/schedule-changes/refresh`, { body: {} })).body.data).toHaveLength(1);

    const other = await ctx.w.user({ role: 'company_staff', companyId: await ctx.w.company() });
    refused(
      'refreshBookingScheduleChanges',
      await ctx.w.req('POST', `${B}/schedule-changes/refresh`, { token: other.token, body: {} }),
      'booking_not_found',
      404,
    );
  });
});

describe('the order-refresh job', () => {
  it('goes on past a supplier failure, finds the change on its next run, and queues its next slot', async () => {
    const { as, booking } = await bookFor('duffel', 'SCHEDULECHANGE');
    const B = `/api/v1/bookings/${booking.booking_id}`;
    const interval = 30 * 60_000;
    const run = scheduleChangeJobHandlers(deps(), interval)[SCHEDULE_CHANGE_QUEUE];
    if (!run) throw new Error('no handler');
    const job = { id: 'j1', queue: SCHEDULE_CHANGE_QUEUE, payload: {}, attempts: 1, maxAttempts: 3 };
    ctx.w.mocks.states.duffel?.injectFault({
      method: 'GET',
      path: `/air/orders/${booking.supplier_order_ref}`,
      kind: 'http_500',
    });
    await run({ ...job, signal: new AbortController().signal });
    expect((await as('GET', `${B}/schedule-changes`)).body.data).toEqual([]);
    await run({ ...job, signal: new AbortController().signal });
    expect((await as('GET', `${B}/schedule-changes`)).body.data).toHaveLength(1);

    const next = new Date((Math.floor(ctx.w.clock.now().getTime() / interval) + 1) * interval);
    const queued = await sql<{ run_at: Date }>`
      select run_at from jobs where dedupe_key = ${`${SCHEDULE_CHANGE_QUEUE}:${next.toISOString()}`}`.execute(
      ctx.w.database.db,
    );
    expect(queued.rows.map((r) => new Date(r.run_at).toISOString())).toEqual([next.toISOString()]);
  });
});
