/** TransferSupplier over Hotelbeds Transfers: availability by route, bookings by rateKey, cancellation. */

import { geoText, transferPoint } from '../destination.ts';
import { clientRef } from '../hotelbeds/adapter.ts';
import { HotelbedsClient, type HotelbedsConfig, policies, toMinor } from '../hotelbeds/client.ts';
import type { CallOptions, Currency } from '../ports/errors.ts';
import { SupplierError } from '../ports/errors.ts';
import type {
  SupplierTransferBooking,
  TransferOffer,
  TransferSearchQuery,
  TransferSupplier,
} from '../ports/transfer.ts';
import { pathSegment } from '../supplier-url.ts';

interface HbService {
  direction: string;
  transferType: 'PRIVATE' | 'SHARED';
  vehicle: { code: string; name: string };
  category: { code: string; name: string };
  maxPaxCapacity: number;
  content?: { customerTransferTimeInfo?: { value: number }[] };
  price: { totalAmount: number; currencyId: string };
  rateKey: string;
  cancellationPolicies?: { amount: string; from: string }[];
  distanceKm?: number;
}
interface HbTransferBooking {
  reference: string;
  status: string;
  totalAmount: number;
  currency: string;
  cancellationAmount?: number;
}

type PlaceType = 'IATA' | 'GPS' | 'ATLAS';
type Place = [PlaceType, string];

/**
 * What our quote_id carries: the validated fields the availability request is rebuilt from (never a
 * path), the services chosen and the total seen. The registry signs it; `decode` re-validates every
 * field anyway, so even a quote_id we signed cannot put anything but these values into a request.
 */
interface QuoteRef {
  from: Place;
  to: Place;
  /** Outbound and optional return date-times, `YYYY-MM-DDTHH:MM:SS`. */
  out: string;
  back?: string;
  pax: number;
  group: string;
  rateKeys: string[];
  total: number;
  pickup: string;
  dropoff: string;
  datetime: string;
}
type SearchRef = Omit<QuoteRef, 'group' | 'rateKeys' | 'total'>;

const PLACE_CODE: Record<PlaceType, RegExp> = {
  IATA: /^[A-Z]{3}$/,
  GPS: /^-?\d{1,3}(\.\d{1,10})?,-?\d{1,3}(\.\d{1,10})?$/,
  // Free text (an address, a hotel name) or an ATLAS code: letters, digits and light punctuation only.
  ATLAS: /^(?!\.{1,2}$)[\p{L}\p{N} ,.'&()-]{1,120}$/u,
};
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** An airport (a city code: its main airport), a city name as its centre's GPS point, else ATLAS text. */
function endpoint(location: string): Place {
  const p = transferPoint(location);
  if (p.kind === 'iata') return ['IATA', p.code];
  if (p.kind === 'geo') return ['GPS', geoText(p)];
  return ['ATLAS', p.text];
}

const isPlace = (p: unknown): p is Place =>
  Array.isArray(p) &&
  p.length === 2 &&
  typeof p[1] === 'string' &&
  Object.hasOwn(PLACE_CODE, p[0]) &&
  PLACE_CODE[p[0] as PlaceType].test(p[1]);

function invalid(what: string): never {
  throw new SupplierError('hotelbeds_transfers', 'invalid_request', what);
}

/** The availability path, from validated fields only. */
function availabilityPath(r: SearchRef): string {
  if (!isPlace(r.from) || !isPlace(r.to)) invalid('Unsupported pickup or drop-off location');
  if (!DATE_TIME.test(r.out) || (r.back !== undefined && !DATE_TIME.test(r.back)))
    invalid('Unsupported pickup or return date-time');
  if (!Number.isInteger(r.pax) || r.pax < 1 || r.pax > 99) invalid('Unsupported passenger count');
  const seg = (v: string) => pathSegment('hotelbeds_transfers', v);
  return (
    `/transfer-api/1.0/availability/en/from/${r.from[0]}/${seg(r.from[1])}/to/${r.to[0]}/${seg(r.to[1])}` +
    `/${r.out}${r.back ? `/${r.back}` : ''}/${r.pax}/0/0`
  );
}

const withSeconds = (dt: string) => (dt.length === 16 ? `${dt}:00` : dt.slice(0, 19));
const groupOf = (s: HbService) => `${s.transferType}:${s.vehicle.code}:${s.category.code}`;

export class HotelbedsTransfersAdapter implements TransferSupplier {
  readonly name = 'hotelbeds_transfers' as const;
  private readonly client: HotelbedsClient;
  private readonly now: () => number;

  constructor(config: HotelbedsConfig) {
    this.client = new HotelbedsClient(config, 'hotelbeds_transfers');
    this.now = config.now ?? Date.now;
  }

  private async offers(ref: SearchRef, opts?: CallOptions) {
    const path = availabilityPath(ref);
    const res = await this.client.call<{ services: HbService[] }>('GET', path, undefined, opts);
    const groups = new Map<string, HbService[]>();
    for (const s of res?.services ?? []) groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), s]);
    return [...groups.entries()].map(([group, services]) => {
      const first = services[0] as HbService;
      const currency = first.price.currencyId as Currency;
      const total = services.reduce((sum, s) => sum + toMinor(s.price.totalAmount, currency), 0);
      const q: QuoteRef = {
        from: ref.from,
        to: ref.to,
        out: ref.out,
        ...(ref.back ? { back: ref.back } : {}),
        pax: ref.pax,
        pickup: ref.pickup,
        dropoff: ref.dropoff,
        datetime: ref.datetime,
        group,
        rateKeys: services.map((s) => s.rateKey),
        total,
      };
      const offer: TransferOffer = {
        supplier: 'hotelbeds_transfers',
        quote_id: Buffer.from(JSON.stringify(q)).toString('base64url'),
        transfer_type: first.transferType,
        vehicle: {
          category: first.category.name,
          description: `${first.vehicle.name} ${first.category.name}`,
          max_passengers: first.maxPaxCapacity,
          // Hotelbeds allows one suitcase per passenger.
          max_luggage: first.maxPaxCapacity,
        },
        provider_name: 'Hotelbeds',
        pickup: { location: ref.pickup, datetime: ref.datetime },
        dropoff: { location: ref.dropoff },
        duration_minutes: first.content?.customerTransferTimeInfo?.[0]?.value ?? null,
        distance_km: first.distanceKm ?? null,
        price: { currency, total_minor: total },
        cancellation_policies: services.flatMap((s) => policies(s.cancellationPolicies, currency)),
        expires_at: new Date(this.now() + 30 * 60_000).toISOString(),
      };
      return offer;
    });
  }

  async search(query: TransferSearchQuery, opts?: CallOptions): Promise<TransferOffer[]> {
    const offers = await this.offers(
      {
        from: endpoint(query.pickup_location),
        to: endpoint(query.dropoff_location),
        out: withSeconds(query.pickup_datetime),
        ...(query.return_datetime ? { back: withSeconds(query.return_datetime) } : {}),
        pax: query.passengers,
        pickup: query.pickup_location,
        dropoff: query.dropoff_location,
        datetime: query.pickup_datetime,
      },
      opts,
    );
    return offers.filter(
      (o) =>
        (!query.transfer_type || o.transfer_type === query.transfer_type) &&
        o.vehicle.max_luggage >= query.luggage,
    );
  }

  /** A quote id back from a caller: every field checked before anything is built from it. */
  private decode(quoteId: string): QuoteRef {
    let q: Partial<QuoteRef> | undefined;
    try {
      q = JSON.parse(Buffer.from(quoteId, 'base64url').toString('utf8')) as Partial<QuoteRef>;
    } catch {
      q = undefined;
    }
    const text = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
    if (
      !q ||
      typeof q !== 'object' ||
      !isPlace(q.from) ||
      !isPlace(q.to) ||
      !DATE_TIME.test(String(q.out)) ||
      (q.back !== undefined && !DATE_TIME.test(String(q.back))) ||
      !Number.isInteger(q.pax) ||
      !text(q.group, 200) ||
      !Array.isArray(q.rateKeys) ||
      q.rateKeys.length === 0 ||
      q.rateKeys.length > 10 ||
      !q.rateKeys.every((k) => text(k, 1000)) ||
      !Number.isInteger(q.total) ||
      !text(q.pickup, 200) ||
      !text(q.dropoff, 200) ||
      !text(q.datetime, 40)
    )
      invalid('quote_id is not a Hotelbeds transfer quote');
    return q as QuoteRef;
  }

  async quote(quoteId: string, opts?: CallOptions) {
    const q = this.decode(quoteId);
    const fresh = (await this.offers(q, opts)).find((o) => this.decode(o.quote_id).group === q.group);
    if (!fresh)
      throw new SupplierError('hotelbeds_transfers', 'sold_out', 'The transfer is no longer available');
    return { available: true, offer: fresh, price_changed: fresh.price.total_minor !== q.total };
  }

  async book(
    input: Parameters<TransferSupplier['book']>[0],
    opts?: CallOptions,
  ): Promise<SupplierTransferBooking> {
    const q = this.decode(input.quote_id);
    const lead = input.passengers[0];
    if (!lead)
      throw new SupplierError('hotelbeds_transfers', 'invalid_request', 'a lead passenger is required');
    const body = {
      language: 'en',
      holder: {
        name: lead.first_name,
        surname: lead.last_name,
        email: lead.email ?? input.contact.email,
        phone: lead.phone ?? input.contact.phone,
      },
      transfers: q.rateKeys.map((rateKey) => ({
        rateKey,
        transferDetails: input.flight_number
          ? [{ type: 'FLIGHT', direction: 'ARRIVAL', code: input.flight_number, companyName: null }]
          : [],
      })),
      clientReference: clientRef(input.client_reference),
      welcomeMessage: input.hotel_name ? `Transfer to ${input.hotel_name}` : '',
      remark: input.special_requests ?? '',
    };
    const res = await this.client.call<{ bookings: HbTransferBooking[] }>(
      'POST',
      '/transfer-api/1.0/bookings',
      body,
      {
        ...opts,
        effect: true,
      },
    );
    const b = res?.bookings[0];
    if (!b)
      throw new SupplierError(
        'hotelbeds_transfers',
        'unknown_outcome',
        'bookings answered without a booking',
      );
    return this.toBooking(b);
  }

  private toBooking(b: HbTransferBooking): SupplierTransferBooking {
    const currency = b.currency as Currency;
    return {
      supplier: 'hotelbeds_transfers',
      booking_ref: b.reference,
      confirmation_number: b.reference,
      status: b.status === 'CONFIRMED' ? 'confirmed' : b.status === 'CANCELLED' ? 'cancelled' : 'pending',
      total: { currency, amount_minor: toMinor(b.totalAmount, currency) },
      ...(b.status === 'CANCELLED' && b.cancellationAmount !== undefined
        ? { cancellation_fee: { currency, amount_minor: toMinor(b.cancellationAmount, currency) } }
        : {}),
      raw: b,
    };
  }

  async getBooking(bookingRef: string, opts?: CallOptions): Promise<SupplierTransferBooking> {
    const res = await this.client.call<{ bookings: HbTransferBooking[] }>(
      'GET',
      `/transfer-api/1.0/bookings/en/reference/${pathSegment('hotelbeds_transfers', bookingRef)}`,
      undefined,
      opts,
    );
    const b = res?.bookings[0];
    if (!b) throw new SupplierError('hotelbeds_transfers', 'not_found', `booking ${bookingRef} not found`);
    return this.toBooking(b);
  }

  async findBookingByClientReference(clientReference: string, opts?: CallOptions) {
    const q = new URLSearchParams({ clientReference: clientRef(clientReference) });
    const res = await this.client.call<{ bookings: HbTransferBooking[] }>(
      'GET',
      `/transfer-api/1.0/bookings/en?${q}`,
      undefined,
      opts,
    );
    const b = res?.bookings.at(-1);
    return b ? this.toBooking(b) : null;
  }

  async cancel(bookingRef: string, _confirmationNumber: string, opts?: CallOptions) {
    const res = await this.client.call<{ bookings: HbTransferBooking[] }>(
      'DELETE',
      `/transfer-api/1.0/booking/en/reference/${pathSegment('hotelbeds_transfers', bookingRef)}`,
      undefined,
      { ...opts, effect: true },
    );
    const b = res?.bookings[0];
    if (!b)
      throw new SupplierError(
        'hotelbeds_transfers',
        'unknown_outcome',
        'cancellation answered without a booking',
      );
    const currency = b.currency as Currency;
    return {
      cancelled: b.status === 'CANCELLED',
      fee: { currency, amount_minor: toMinor(b.cancellationAmount ?? 0, currency) },
    };
  }
}
