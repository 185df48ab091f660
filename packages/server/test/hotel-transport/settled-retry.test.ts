/**
 * A cancellation's same-key retry gets the truth (domains/reservation/cancel.ts, settled-answer.ts):
 * - the request died after the cancellation was settled (by itself or by the job): the retry answers that
 *   cancellation, not 400 `invalid_booking_state` for the state its own cancel produced;
 * - the job settled a cancellation answered 502 `cancellation_pending`: the stored 502 becomes the
 *   cancellation (or, if it did not happen, is dropped and the retry cancels anew);
 * - a cancel whose call never reached the provider is never "pending, do not retry" and then silently
 *   withdrawn: once the call window is over, the next cancel (or the same-key retry) cancels for real.
 */
import type { MockStates } from '@travel/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWindowMs } from '../../src/internal/config.ts';
import { bookTransportOk, call, hotelBook, hotelRate } from './flows.ts';
import { idem, type World, world } from './setup.ts';

let w: World;
let token: string;

beforeAll(async () => {
  w = await world();
  const company = await w.t.company();
  token = (await w.t.user({ role: 'company_admin', companyId: company })).token;
});
afterAll(() => w?.close());

const cancelHotel = (id: number, headers: Record<string, string> = {}) =>
  call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, { token, headers });

async function bookHotel(lastName = 'Lovelace') {
  const offer = await hotelRate(w, 'hotelbeds');
  const booked = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
    token,
    headers: idem(),
    body: hotelBook(offer.rate_key, 'hotelbeds', lastName),
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  return booked.body as { booking_id: number; supplier_booking_ref: string };
}

/** The request's answer is lost with its process: no answer stored under its key. */
async function forgetAnswer(headers: Record<string, string>) {
  await w.t.database.db
    .deleteFrom('idempotency_keys')
    .where('idem_key', '=', headers['idempotency-key'] as string)
    .execute();
}

describe('a same-key retry of a settled cancellation answers it', () => {
  it('transfer: the request died after the cancel settled; the retry answers 200 cancelled', async () => {
    const booked = await bookTransportOk(w, token, 'hotelbeds_transfers');
    const headers = idem();
    const path = `/api/v1/transport/bookings/${booked.booking_id}/cancel`;
    const first = await call(w, 'cancelTransportBooking', 'POST', path, { token, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await forgetAnswer(headers);
    const retry = await call(w, 'cancelTransportBooking', 'POST', path, { token, headers });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ booking_id: booked.booking_id, status: 'cancelled', cancelled: true });
    // Another caller's cancel of the cancelled booking is still refused.
    const other = await call(w, 'cancelTransportBooking', 'POST', path, { token, headers: idem() });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('invalid_booking_state');
  });

  it('hotel: the job settles a lost cancel answer; the stored 502 becomes the cancellation', async () => {
    const booked = await bookHotel('CANCELPENDING');
    const headers = idem();
    const lost = await cancelHotel(booked.booking_id, headers);
    expect(lost.status, JSON.stringify(lost.body)).toBe(502);
    expect(lost.body.detail).not.toMatch(/do not retry/i);
    await w.jobs.runOnce();
    const retry = await cancelHotel(booked.booking_id, headers);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ booking_id: booked.booking_id, status: 'cancelled', cancelled: true });
  });
});

describe('a transfer cancel whose call never reached the provider', () => {
  const hbt = () => w.mocks.states['hotelbeds-transfers'] as NonNullable<MockStates['hotelbeds-transfers']>;
  const cancelTransfer = (id: number, headers: Record<string, string>) =>
    call(w, 'cancelTransportBooking', 'POST', `/api/v1/transport/bookings/${id}/cancel`, { token, headers });
  /** A transfer whose cancel call is reset before the provider acts: 502 pending, still confirmed there. */
  async function lostCancel(headers: Record<string, string>) {
    const booked = await bookTransportOk(w, token, 'hotelbeds_transfers');
    const ref = (booked as unknown as { supplier_booking_ref: string }).supplier_booking_ref;
    hbt().faults.reset({ path: /\/transfer-api\/1\.0\/booking\//, count: 1 });
    const lost = await cancelTransfer(booked.booking_id, headers);
    expect(lost.status, JSON.stringify(lost.body)).toBe(502);
    expect(lost.body.detail).not.toMatch(/do not retry/i);
    expect(hbt().bookings.get(ref)?.status).toBe('CONFIRMED');
    return { id: booked.booking_id, ref };
  }

  it('the job withdraws it after the call window and drops the stored 502: the same-key retry cancels', async () => {
    const headers = idem();
    const { id, ref } = await lostCancel(headers);
    w.t.clock.advance(callWindowMs() + 1_000);
    await w.jobs.runOnce();
    const retry = await cancelTransfer(id, headers);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ status: 'cancelled', cancelled: true });
    expect(hbt().bookings.get(ref)?.status).toBe('CANCELLED');
  });

  it('a cancel after the call window, before the job: the provider still holds it, so it cancels anew', async () => {
    const { id, ref } = await lostCancel(idem());
    w.t.clock.advance(callWindowMs() + 1_000);
    const again = await cancelTransfer(id, idem());
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ status: 'cancelled', cancelled: true });
    expect(hbt().bookings.get(ref)?.status).toBe('CANCELLED');
  });
});
