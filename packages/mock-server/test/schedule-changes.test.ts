/**
 * Airline schedule changes in the Duffel emulator, at the wire: the SCHEDULECHANGE trigger and the
 * `changeSchedule` knob record an airline-initiated change on the order (removed / added slices) and move
 * the order's slices; the change is listed by order, accepted once (`actions/accept`) or reported
 * (`PATCH` with `action_taken`). Amadeus and Mystifly show a change only in the re-read itinerary: their
 * adapters are tested against it in packages/server/test/schedule-changes/.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duffelHandlers } from '../src/suppliers/duffel/index.ts';

const BASE = 'https://api.duffel.test';
const emu = duffelHandlers({ baseUrl: BASE, latencyMs: 0, seed: 5 });
const server = setupServer(...emu.handlers);
beforeAll(() => server.listen());
afterAll(() => server.close());

type Body = Record<string, any>;
const headers = {
  Authorization: 'Bearer duffel_test_abc',
  'Duffel-Version': 'v2',
  'Content-Type': 'application/json',
};
const send = async (method: string, path: string, data?: unknown) => {
  const r = await fetch(`${BASE}${path}`, {
    method,
    headers,
    ...(data === undefined ? {} : { body: JSON.stringify({ data }) }),
  });
  return { status: r.status, body: (await r.json()) as Body };
};

const plus = (local: string, minutes: number) =>
  new Date(Date.parse(`${local.slice(0, 19)}Z`) + minutes * 60_000).toISOString().slice(0, 19);

async function order(familyName: string): Promise<Body> {
  const search = {
    slices: [{ origin: 'LHR', destination: 'CDG', departure_date: '2026-12-20' }],
    passengers: [{ type: 'adult' }],
    cabin_class: 'economy',
  };
  const offer = (await send('POST', '/air/offer_requests', search)).body.data.offers[0];
  const passengers = offer.passengers.map((p: Body) => ({
    id: p.id,
    title: 'ms',
    gender: 'f',
    given_name: 'Ada',
    family_name: familyName,
    born_on: '1985-12-10',
    email: 'ada@example.com',
    phone_number: '+447700900123',
  }));
  const payments = [{ type: 'balance', amount: offer.total_amount, currency: offer.total_currency }];
  const created = await send('POST', '/air/orders', {
    type: 'instant',
    selected_offers: [offer.id],
    passengers,
    payments,
  });
  expect(created.status).toBe(201);
  return created.body.data;
}

describe('Duffel airline-initiated changes', () => {
  it('SCHEDULECHANGE: the order is booked as offered, then its first read shows the airline’s change', async () => {
    const booked = await order('SCHEDULECHANGE');
    expect(booked.airline_initiated_changes).toEqual([]);
    const seg = booked.slices[0].segments[0];

    const read = (await send('GET', `/air/orders/${booked.id}`)).body.data;
    expect(read.airline_initiated_changes).toHaveLength(1);
    const change = read.airline_initiated_changes[0];
    expect(change).toMatchObject({
      id: expect.stringMatching(/^aic_0000/),
      order_id: booked.id,
      action_taken: null,
      action_taken_at: null,
      available_actions: ['accept', 'cancel', 'change', 'update'],
    });
    expect(change.removed).toEqual([booked.slices[0]]);
    expect(change.added[0].segments[0]).toMatchObject({
      id: seg.id,
      departing_at: plus(seg.departing_at, 95),
      arriving_at: plus(seg.arriving_at, 95),
      marketing_carrier_flight_number: seg.marketing_carrier_flight_number,
    });
    expect(read.slices[0]).toEqual(change.added[0]);
    // Once: the next read shows the same single change.
    expect((await send('GET', `/air/orders/${booked.id}`)).body.data.airline_initiated_changes).toEqual([
      change,
    ]);

    const listed = await send('GET', `/air/airline_initiated_changes?order_id=${booked.id}`);
    expect(listed.body.data).toEqual([change]);

    const accepted = await send('POST', `/air/airline_initiated_changes/${change.id}/actions/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({
      id: change.id,
      action_taken: 'accepted',
      action_taken_at: expect.any(String),
      available_actions: [],
    });
    const again = await send('POST', `/air/airline_initiated_changes/${change.id}/actions/accept`);
    expect([again.status, again.body.errors[0].type, again.body.errors[0].code]).toEqual([
      422,
      'invalid_state_error',
      'already_actioned',
    ]);
    const onOrder = (await send('GET', `/air/orders/${booked.id}`)).body.data.airline_initiated_changes[0];
    expect(onOrder.action_taken).toBe('accepted');
  });

  it('the changeSchedule knob: a new flight number and time; PATCH reports what was done', async () => {
    const booked = await order('LOVELACE');
    expect((await send('GET', `/air/orders/${booked.id}`)).body.data.airline_initiated_changes).toEqual([]);
    const seg = booked.slices[0].segments[0];
    const change = emu.state.changeSchedule(booked.id, { minutes: -30, flightNumber: '4321' });
    const read = (await send('GET', `/air/orders/${booked.id}`)).body.data;
    expect(read.slices[0].segments[0]).toMatchObject({
      departing_at: plus(seg.departing_at, -30),
      marketing_carrier_flight_number: '4321',
    });
    const bad = await send('PATCH', `/air/airline_initiated_changes/${change.id}`, {
      action_taken: 'ignored',
    });
    expect([bad.status, bad.body.errors[0].type]).toEqual([422, 'validation_error']);
    const patched = await send('PATCH', `/air/airline_initiated_changes/${change.id}`, {
      action_taken: 'changed',
    });
    expect(patched.body.data).toMatchObject({ action_taken: 'changed', available_actions: [] });
    const missing = await send('POST', '/air/airline_initiated_changes/aic_nope/actions/accept');
    expect([missing.status, missing.body.errors[0].code]).toEqual([404, 'not_found']);
    expect((await send('GET', '/air/airline_initiated_changes?order_id=ord_nope')).status).toBe(404);
  });
});
