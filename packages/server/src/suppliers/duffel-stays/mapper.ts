import type { StaysAccommodation, StaysBooking, StaysRate } from '@duffel/api/types';
import { asCurrency, toMinor } from '../duffel/mapper.ts';
import type { CancellationPolicy, HotelOffer, SupplierHotelBooking } from '../ports/hotel.ts';

/** Duffel Stays shapes onto the hotel port. */

const BOARDS: Record<string, [string, string]> = {
  room_only: ['RO', 'Room only'],
  breakfast: ['BB', 'Bed and breakfast'],
  half_board: ['HB', 'Half board'],
  full_board: ['FB', 'Full board'],
  all_inclusive: ['AI', 'All inclusive'],
};

/**
 * Duffel gives a refund timeline ("cancel before T, get R back"); we give fee policies ("from T, the fee
 * is F"). Before the first deadline the first refund applies; after the last one nothing comes back.
 */
export function policies(
  rate: Pick<StaysRate, 'cancellation_timeline' | 'total_amount' | 'total_currency'>,
  bookedAt: string,
): CancellationPolicy[] {
  const currency = asCurrency(rate.total_currency);
  const total = toMinor(rate.total_amount, currency);
  const timeline = [...rate.cancellation_timeline].sort((a, b) => a.before.localeCompare(b.before));
  const out: CancellationPolicy[] = [];
  const first = timeline[0];
  const firstFee = first ? total - toMinor(first.refund_amount, currency) : total;
  if (firstFee > 0) out.push({ from: bookedAt, fee: { currency, amount_minor: firstFee } });
  timeline.forEach((t, i) => {
    const next = timeline[i + 1];
    const fee = next ? total - toMinor(next.refund_amount, currency) : total;
    out.push({ from: t.before, fee: { currency, amount_minor: fee } });
  });
  return out;
}

/** The refund a cancellation at `nowMs` earns under the timeline. */
export function refundAt(
  rate: Pick<StaysRate, 'cancellation_timeline' | 'total_currency'>,
  nowMs: number,
): number {
  const currency = asCurrency(rate.total_currency);
  const open = rate.cancellation_timeline
    .filter((t) => nowMs < Date.parse(t.before))
    .sort((a, b) => a.before.localeCompare(b.before))[0];
  return open ? toMinor(open.refund_amount, currency) : 0;
}

function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(h)) * 10) / 10;
}

/** The stay a rate was priced for: dates, rooms and the guests counted by type. */
export interface StayOccupancy {
  check_in: string;
  check_out: string;
  rooms: number;
  adults: number;
  children: number;
}

export function stayOf(
  dates: { check_in: string; check_out: string },
  rooms: number,
  guests: readonly { type: 'adult' | 'child' }[],
): StayOccupancy {
  const adults = guests.filter((g) => g.type === 'adult').length;
  return { ...dates, rooms, adults, children: guests.length - adults };
}

export function mapRate(
  acc: StaysAccommodation,
  roomName: string,
  rate: StaysRate,
  stay: StayOccupancy,
  nowIso: string,
  origin?: { latitude: number; longitude: number },
  rateKey = rate.id,
): HotelOffer {
  const currency = asCurrency(rate.total_currency);
  const total = toMinor(rate.total_amount, currency);
  const taxes = toMinor(rate.tax_amount, currency) + toMinor(rate.fee_amount, currency);
  const coords = acc.location.geographic_coordinates;
  const [board, boardName] = BOARDS[rate.board_type] ?? ['RO', 'Room only'];
  return {
    supplier: 'duffel_stays',
    rate_key: rateKey,
    rate_type: 'RECHECK',
    hotel: {
      hotel_id: acc.id,
      name: acc.name,
      star_rating: acc.rating ?? 0,
      address: acc.location.address.line_one,
      city: acc.location.address.city_name,
      country: acc.location.address.country_code,
      latitude: coords?.latitude ?? 0,
      longitude: coords?.longitude ?? 0,
      distance_km: coords && origin ? distanceKm(origin, coords) : null,
    },
    room: {
      room_type: roomName.toUpperCase().replaceAll(' ', '_'),
      room_name: roomName,
      board,
      board_name: boardName,
    },
    check_in: stay.check_in,
    check_out: stay.check_out,
    nights: Math.round((Date.parse(stay.check_out) - Date.parse(stay.check_in)) / 86_400_000),
    rooms: stay.rooms,
    adults: stay.adults,
    children: stay.children,
    price: { currency, base_minor: total - taxes, taxes_minor: taxes, total_minor: total },
    refundable: rate.cancellation_timeline.length > 0,
    cancellation_policies: policies(rate, nowIso),
  };
}

export function bookedRate(b: StaysBooking): StaysRate | undefined {
  return b.accommodation.rooms[0]?.rates[0];
}

export function mapBooking(b: StaysBooking): SupplierHotelBooking {
  const rate = bookedRate(b);
  const currency = asCurrency(rate?.total_currency);
  return {
    supplier: 'duffel_stays',
    booking_ref: b.id,
    status: b.status === 'cancelled' ? 'cancelled' : 'confirmed',
    hotel_confirmation: b.reference,
    total: { currency, amount_minor: toMinor(rate?.total_amount, currency) },
    cancellation_policies: rate ? policies(rate, b.confirmed_at) : [],
    raw: b,
  };
}
