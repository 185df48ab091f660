import type { Duffel } from '@duffel/api';
import type { StaysQuote } from '@duffel/api/types';

type StaysBookingPayload = Parameters<Duffel['stays']['bookings']['create']>[0];

import { call, createDuffel, type DuffelClientConfig } from '../duffel/client.ts';
import { asCurrency, toMinor } from '../duffel/mapper.ts';
import { type CallOptions, SupplierError } from '../ports/errors.ts';
import type { HotelOffer, HotelSearchQuery, HotelSupplier } from '../ports/hotel.ts';
import { geocode } from './geocode.ts';
import { bookedRate, mapBooking, mapRate, refundAt, stayOf } from './mapper.ts';

/**
 * Duffel Stays as a HotelSupplier. Rates must be quoted before booking (rate_type RECHECK): checkRate
 * creates the quote and hands back its id as the rate key, which book then uses. Duffel has no cancel
 * simulation, so `simulate` computes the fee from the booked rate's refund timeline.
 */
export class DuffelStaysAdapter implements HotelSupplier {
  readonly name = 'duffel_stays' as const;
  readonly #duffel: Duffel;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  /** Rate totals seen at search, to tell a price change at quote time (bounded). */
  readonly #seen = new Map<string, number>();

  constructor(config: DuffelClientConfig & { now?: () => number; maxHotels?: number }) {
    this.#duffel = createDuffel(config, 'duffel_stays');
    this.#timeoutMs = config.timeoutMs ?? 30_000;
    this.#now = config.now ?? Date.now;
  }

  #run<T>(opts: CallOptions | undefined, fn: (d: Duffel) => Promise<T>, create = false): Promise<T> {
    return call('duffel_stays', this.#timeoutMs, opts, () => fn(this.#duffel), create);
  }

  #remember(rateId: string, totalMinor: number): void {
    if (this.#seen.size > 10_000) this.#seen.delete(this.#seen.keys().next().value as string);
    this.#seen.set(rateId, totalMinor);
  }

  async search(query: HotelSearchQuery, opts?: CallOptions): Promise<HotelOffer[]> {
    const at = geocode(query.destination);
    const guests = query.rooms.flatMap((r) => [
      ...Array.from({ length: r.adults }, () => ({ type: 'adult' as const })),
      ...Array.from({ length: r.children }, (_, i) => ({
        type: 'child' as const,
        age: r.child_ages[i] ?? 8,
      })),
    ]);
    const body = {
      location: { radius: 5, geographic_coordinates: at },
      check_in_date: query.check_in,
      check_out_date: query.check_out,
      rooms: query.rooms.length,
      guests,
    };
    const res = await this.#run(opts, (d) => d.stays.search(body));
    const results = res.data.results
      .filter((r) => (r.accommodation.rating ?? 0) >= (query.min_star_rating ?? 0))
      .sort((a, b) => Number(a.cheapest_rate_total_amount) - Number(b.cheapest_rate_total_amount))
      .slice(0, query.max_results);
    const full = await Promise.all(
      results.map((r) => this.#run(opts, (d) => d.stays.searchResults.fetchAllRates(r.id))),
    );
    const nowIso = new Date(this.#now()).toISOString();
    const stay = stayOf(query, query.rooms.length, guests);
    return full.flatMap(({ data }) =>
      data.accommodation.rooms.flatMap((room) =>
        room.rates.map((rate) => {
          const offer = mapRate(data.accommodation, room.name, rate, stay, nowIso, at);
          this.#remember(rate.id, offer.price.total_minor);
          return offer;
        }),
      ),
    );
  }

  #quoteOffer(q: StaysQuote): HotelOffer {
    const room = q.accommodation.rooms[0];
    const rate = room?.rates[0];
    if (!room || !rate) throw new SupplierError('duffel_stays', 'unavailable', 'Quote without a rate');
    const stay = stayOf({ check_in: q.check_in_date, check_out: q.check_out_date }, q.rooms, q.guests);
    const quoted = { ...rate, total_amount: q.total_amount, total_currency: q.total_currency };
    return mapRate(
      q.accommodation,
      room.name,
      quoted,
      stay,
      new Date(this.#now()).toISOString(),
      undefined,
      q.id,
    );
  }

  /**
   * A rate id is quoted; a quote id (the key an earlier check-rate handed out) is read back, so the key
   * check-rate answers with can be checked and booked again until the quote expires.
   */
  async checkRate(rateKey: string, opts?: CallOptions) {
    const quoted = rateKey.startsWith('quo_');
    const q = (
      await this.#run(opts, (d) => (quoted ? d.stays.quotes.get(rateKey) : d.stays.quotes.create(rateKey)))
    ).data;
    const offer = this.#quoteOffer(q);
    const previous = this.#seen.get(rateKey) ?? offer.price.total_minor;
    this.#remember(q.id, offer.price.total_minor);
    return {
      available: true,
      offer,
      price_changed: previous !== offer.price.total_minor,
      previous_total_minor: previous,
    };
  }

  async book(input: Parameters<HotelSupplier['book']>[0], opts?: CallOptions) {
    const quoteId = input.rate_key.startsWith('quo_')
      ? input.rate_key
      : (await this.#run(opts, (d) => d.stays.quotes.create(input.rate_key))).data.id;
    const guests =
      input.guests.length > 0 ? input.guests : [{ ...input.holder, room: 1, type: 'AD' as const }];
    const payload: StaysBookingPayload = {
      quote_id: quoteId,
      guests: guests.map((g) => ({ given_name: g.first_name, family_name: g.last_name })),
      email: input.contact_email,
      phone_number: input.contact_phone,
      metadata: { client_reference: input.client_reference },
    };
    if (input.special_requests) payload.accommodation_special_requests = input.special_requests;
    const res = await this.#run(opts, (d) => d.stays.bookings.create(payload), true);
    return mapBooking(res.data);
  }

  async getBooking(bookingRef: string, opts?: CallOptions) {
    return mapBooking((await this.#run(opts, (d) => d.stays.bookings.get(bookingRef))).data);
  }

  async findBookingByClientReference(clientReference: string, opts?: CallOptions) {
    // Emulator extension (metadata filter); the client check below keeps it correct against live Duffel.
    const params = { 'metadata[client_reference]': clientReference } as Record<string, string>;
    const res = await this.#run(opts, (d) => d.stays.bookings.list(params));
    const hit = res.data.find((b) => b.metadata?.client_reference === clientReference);
    return hit ? mapBooking(hit) : null;
  }

  async cancel(bookingRef: string, simulate: boolean, opts?: CallOptions) {
    const booking = (await this.#run(opts, (d) => d.stays.bookings.get(bookingRef))).data;
    const rate = bookedRate(booking);
    const currency = asCurrency(rate?.total_currency);
    const total = toMinor(rate?.total_amount, currency);
    const refund = rate ? refundAt(rate, this.#now()) : 0;
    const money = {
      fee: { currency, amount_minor: total - refund },
      refund: { currency, amount_minor: refund },
    };
    if (simulate || booking.status === 'cancelled')
      return { cancelled: booking.status === 'cancelled', ...money };
    await this.#run(opts, (d) => d.stays.bookings.cancel(bookingRef), true);
    return { cancelled: true, ...money };
  }
}
