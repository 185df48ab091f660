/** HotelSupplier over Hotelbeds APItude: availability, checkrates, bookings, cancellation SIMULATION/CANCELLATION. */
import { createHash } from 'node:crypto';
import { hotelPlace } from '../destination.ts';
import type { CallOptions, Currency } from '../ports/errors.ts';
import { SupplierError } from '../ports/errors.ts';
import type {
  HotelOffer,
  HotelRateCheck,
  HotelSearchQuery,
  HotelSupplier,
  SupplierHotelBooking,
} from '../ports/hotel.ts';
import { pathSegment } from '../supplier-url.ts';
import { HotelbedsClient, type HotelbedsConfig, policies, toMinor } from './client.ts';

interface HbRate {
  rateKey: string;
  rateClass: string;
  rateType: 'BOOKABLE' | 'RECHECK';
  net: string;
  boardCode: string;
  boardName: string;
  rooms: number;
  adults: number;
  children: number;
  cancellationPolicies?: { amount: string; from: string }[];
  taxes?: { taxes?: { amount: string; included?: boolean }[] };
}
interface HbHotel {
  code: number;
  name: string;
  categoryCode: string;
  destinationName: string;
  countryCode?: string;
  address?: string;
  latitude: string;
  longitude: string;
  distance?: string;
  currency?: string;
  checkIn?: string;
  checkOut?: string;
  rooms: { code: string; name: string; rates: HbRate[] }[];
}
interface HbBooking {
  reference: string;
  clientReference: string;
  status: string;
  hotel: HbHotel & { cancellationAmount?: string; totalNet: string; currency: string };
  totalNet: number;
  currency: string;
}

/** APItude caps clientReference at 20 characters; longer ids are hashed the same way on book and lookup. */
export function clientRef(ref: string): string {
  return ref.length <= 20 ? ref : createHash('sha256').update(ref).digest('hex').slice(0, 20).toUpperCase();
}

function nightsBetween(a: string, b: string): number {
  return Math.max(1, Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000));
}

function toOffer(
  h: HbHotel,
  room: { code: string; name: string },
  r: HbRate,
  checkIn: string,
  checkOut: string,
): HotelOffer {
  const currency = (h.currency ?? 'EUR') as Currency;
  const total = toMinor(r.net, currency);
  const taxes = (r.taxes?.taxes ?? []).reduce((s, t) => s + toMinor(t.amount, currency), 0);
  return {
    supplier: 'hotelbeds',
    rate_key: r.rateKey,
    rate_type: r.rateType,
    hotel: {
      hotel_id: String(h.code),
      name: h.name,
      star_rating: Number.parseInt(h.categoryCode, 10) || 0,
      address: h.address ?? '',
      city: h.destinationName,
      country: h.countryCode ?? '',
      latitude: Number(h.latitude),
      longitude: Number(h.longitude),
      distance_km: h.distance ? Number(h.distance) : null,
    },
    room: { room_type: room.code, room_name: room.name, board: r.boardCode, board_name: r.boardName },
    check_in: checkIn,
    check_out: checkOut,
    nights: nightsBetween(checkIn, checkOut),
    rooms: r.rooms,
    adults: r.adults,
    children: r.children,
    price: { currency, base_minor: total - taxes, taxes_minor: taxes, total_minor: total },
    refundable: r.rateClass !== 'NRF',
    cancellation_policies: policies(r.cancellationPolicies, currency),
  };
}

function toBooking(b: HbBooking): SupplierHotelBooking {
  const rate = b.hotel.rooms[0]?.rates[0];
  const currency = (b.currency ?? 'EUR') as Currency;
  const status = b.status === 'CONFIRMED' ? 'confirmed' : b.status === 'CANCELLED' ? 'cancelled' : 'pending';
  return {
    supplier: 'hotelbeds',
    booking_ref: b.reference,
    status,
    hotel_confirmation: null,
    total: { currency, amount_minor: toMinor(b.totalNet, currency) },
    cancellation_policies: policies(rate?.cancellationPolicies, currency),
    raw: b,
  };
}

export class HotelbedsAdapter implements HotelSupplier {
  readonly name = 'hotelbeds' as const;
  private readonly client: HotelbedsClient;
  /** Search prices by rateKey, so checkRate can tell a price change (bounded; lost on restart). */
  private readonly seen = new Map<string, number>();

  constructor(config: HotelbedsConfig) {
    this.client = new HotelbedsClient(config, 'hotelbeds');
  }

  private remember(offer: HotelOffer): void {
    if (this.seen.size > 5000) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(offer.rate_key, offer.price.total_minor);
  }

  async search(query: HotelSearchQuery, opts?: CallOptions): Promise<HotelOffer[]> {
    // An IATA city or airport code is a Hotelbeds destination code; a city name goes as the coordinates of
    // the city it names (`suppliers/destination.ts`), so "Birmingham" is never BIR (Biratnagar).
    const code = query.destination.trim().toUpperCase();
    const at = /^[A-Z]{3}$/.test(code) ? null : hotelPlace('hotelbeds', query.destination);
    const where = at
      ? { geolocation: { latitude: at.latitude, longitude: at.longitude, radius: 20, unit: 'km' } }
      : { destination: { code } };
    const body = {
      stay: { checkIn: query.check_in, checkOut: query.check_out },
      occupancies: [
        {
          rooms: query.rooms.length,
          adults: query.rooms.reduce((s, r) => s + r.adults, 0),
          children: query.rooms.reduce((s, r) => s + r.children, 0),
          paxes: query.rooms.flatMap((r) => r.child_ages.map((age) => ({ type: 'CH', age }))),
        },
      ],
      ...where,
      filter: {
        maxHotels: query.max_results,
        ...(query.min_star_rating ? { minCategory: query.min_star_rating } : {}),
      },
    };
    const res = await this.client.call<{ hotels: { hotels?: HbHotel[] } }>(
      'POST',
      '/hotel-api/1.0/hotels',
      body,
      opts,
    );
    const offers = (res?.hotels.hotels ?? []).flatMap((h) =>
      h.rooms.flatMap((room) => room.rates.map((r) => toOffer(h, room, r, query.check_in, query.check_out))),
    );
    const out = offers.slice(0, query.max_results);
    for (const o of out) this.remember(o);
    return out;
  }

  async checkRate(rateKey: string, opts?: CallOptions): Promise<HotelRateCheck> {
    const res = await this.client.call<{ hotel: HbHotel }>(
      'POST',
      '/hotel-api/1.0/checkrates',
      { rooms: [{ rateKey }] },
      opts,
    );
    const h = res?.hotel;
    const room = h?.rooms[0];
    const rate = room?.rates[0];
    if (!h || !room || !rate) throw new SupplierError('hotelbeds', 'sold_out', 'checkrates returned no rate');
    const offer = toOffer(h, room, rate, h.checkIn ?? '', h.checkOut ?? '');
    const previous = this.seen.get(rateKey) ?? offer.price.total_minor;
    this.remember(offer);
    return {
      available: true,
      offer,
      price_changed: previous !== offer.price.total_minor,
      previous_total_minor: previous,
    };
  }

  async book(input: Parameters<HotelSupplier['book']>[0], opts?: CallOptions): Promise<SupplierHotelBooking> {
    const body = {
      holder: { name: input.holder.first_name, surname: input.holder.last_name },
      rooms: [
        {
          rateKey: input.rate_key,
          paxes: input.guests.map((g) => ({
            roomId: g.room,
            type: g.type,
            name: g.first_name,
            surname: g.last_name,
            ...(g.age === undefined ? {} : { age: g.age }),
          })),
        },
      ],
      clientReference: clientRef(input.client_reference),
      remark: input.special_requests ?? '',
      tolerance: 2,
    };
    const res = await this.client.call<{ booking: HbBooking }>('POST', '/hotel-api/1.0/bookings', body, {
      ...opts,
      effect: true,
    });
    if (!res) throw new SupplierError('hotelbeds', 'unknown_outcome', 'bookings answered without a body');
    return toBooking(res.booking);
  }

  async getBooking(bookingRef: string, opts?: CallOptions): Promise<SupplierHotelBooking> {
    const res = await this.client.call<{ booking: HbBooking }>(
      'GET',
      `/hotel-api/1.0/bookings/${pathSegment('hotelbeds', bookingRef)}`,
      undefined,
      opts,
    );
    if (!res) throw new SupplierError('hotelbeds', 'not_found', `booking ${bookingRef} not found`);
    return toBooking(res.booking);
  }

  async findBookingByClientReference(
    clientReference: string,
    opts?: CallOptions,
  ): Promise<SupplierHotelBooking | null> {
    const q = new URLSearchParams({ from: '1', to: '50', clientReference: clientRef(clientReference) });
    const res = await this.client.call<{ bookings: { bookings: HbBooking[] } }>(
      'GET',
      `/hotel-api/1.0/bookings?${q}`,
      undefined,
      opts,
    );
    const b = res?.bookings.bookings.at(-1);
    return b ? toBooking(b) : null;
  }

  async cancel(
    bookingRef: string,
    simulate: boolean,
    opts?: CallOptions,
  ): Promise<{
    cancelled: boolean;
    fee: { currency: Currency; amount_minor: number };
    refund: { currency: Currency; amount_minor: number };
  }> {
    const flag = simulate ? 'SIMULATION' : 'CANCELLATION';
    const res = await this.client.call<{ booking: HbBooking }>(
      'DELETE',
      `/hotel-api/1.0/bookings/${pathSegment('hotelbeds', bookingRef)}?cancellationFlag=${flag}`,
      undefined,
      { ...opts, effect: !simulate },
    );
    if (!res) throw new SupplierError('hotelbeds', 'unknown_outcome', 'cancellation answered without a body');
    const b = res.booking;
    const currency = (b.currency ?? 'EUR') as Currency;
    const total = toMinor(b.totalNet, currency);
    const fee = Math.min(total, toMinor(b.hotel.cancellationAmount ?? 0, currency));
    return {
      cancelled: !simulate && b.status === 'CANCELLED',
      fee: { currency, amount_minor: fee },
      refund: { currency, amount_minor: total - fee },
    };
  }
}
