import { percentOf } from '../../internal/money.ts';
import { arr, obj, s, toMinor, type Wire } from '../amadeus/mapper.ts';
import { geoText, transferPoint } from '../destination.ts';
import type { Currency } from '../ports/errors.ts';
import type { SupplierTransferBooking, TransferOffer, TransferSearchQuery } from '../ports/transfer.ts';

/** Maps Amadeus Transfer Search/Booking/Management shapes to the transfer port. */

/**
 * IATA code (a city code: its main airport), "lat,lon" or a city name (its centre, as a geo code), or free
 * text (address / hotel name) with the city and country it names when one of its parts is a city.
 */
export function locationFields(side: 'start' | 'end', value: string): Wire {
  const p = transferPoint(value);
  if (p.kind === 'iata') return { [`${side}LocationCode`]: p.code };
  if (p.kind === 'geo') return { [`${side}GeoCode`]: geoText(p) };
  return {
    [`${side}AddressLine`]: p.text,
    [`${side}Name`]: p.text,
    ...(p.city ? { [`${side}CityName`]: p.city.name, [`${side}CountryCode`]: p.city.country } : {}),
  };
}

export function searchBody(q: TransferSearchQuery): Wire {
  const body: Wire = {
    ...locationFields('start', q.pickup_location),
    ...locationFields('end', q.dropoff_location),
    startDateTime: q.pickup_datetime,
    passengers: q.passengers,
    currency: q.currency,
  };
  if (q.transfer_type) body.transferType = q.transfer_type;
  return body;
}

/** The quote id carries the search and the offer id: Amadeus has no "get offer", so a quote re-searches. */
export interface QuoteKey {
  query: TransferSearchQuery;
  offerId: string;
  totalMinor: number;
}
export const encodeQuote = (k: QuoteKey): string => Buffer.from(JSON.stringify(k)).toString('base64url');
/** The SDK appends the offer id to a query string unencoded: only a plain id may reach it. */
const OFFER_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function decodeQuote(id: string): QuoteKey | undefined {
  let k: Partial<QuoteKey> | undefined;
  try {
    k = JSON.parse(Buffer.from(id, 'base64url').toString()) as Partial<QuoteKey>;
  } catch {
    return undefined;
  }
  const q = k?.query as Partial<TransferSearchQuery> | undefined;
  const ok =
    !!k &&
    typeof k.offerId === 'string' &&
    OFFER_ID.test(k.offerId) &&
    Number.isInteger(k.totalMinor) &&
    !!q &&
    typeof q === 'object' &&
    typeof q.pickup_location === 'string' &&
    typeof q.dropoff_location === 'string' &&
    typeof q.pickup_datetime === 'string' &&
    Number.isInteger(q.passengers) &&
    Number.isInteger(q.luggage) &&
    typeof q.currency === 'string';
  return ok ? (k as QuoteKey) : undefined;
}

const TYPES = ['PRIVATE', 'SHARED', 'TAXI', 'HOURLY'] as const;

export function offerFromAmadeus(o: Wire, query: TransferSearchQuery, expiresAt: string): TransferOffer {
  const q = obj(o.quotation);
  const currency = s(q.currencyCode) as Currency;
  const total = toMinor(q.monetaryAmount, currency);
  const vehicle = obj(o.vehicle);
  const start = obj(o.start);
  const type = s(o.transferType);
  const startMs = Date.parse(`${s(start.dateTime)}Z`);
  return {
    supplier: 'amadeus_transfers',
    quote_id: encodeQuote({ query, offerId: s(o.id), totalMinor: total }),
    transfer_type: (TYPES as readonly string[]).includes(type)
      ? (type as TransferOffer['transfer_type'])
      : 'PRIVATE',
    vehicle: {
      category: `${s(vehicle.code)}_${s(vehicle.category)}`,
      description: s(vehicle.description),
      max_passengers: Number(obj(arr(vehicle.seats)[0]).count ?? 0),
      max_luggage: Number(obj(arr(vehicle.baggages)[0]).count ?? 0),
    },
    provider_name: s(obj(o.serviceProvider).name),
    pickup: { location: query.pickup_location, datetime: s(start.dateTime) },
    dropoff: { location: query.dropoff_location },
    duration_minutes: null,
    distance_km: obj(o.distance).value === undefined ? null : Number(obj(o.distance).value),
    price: { currency, total_minor: total },
    cancellation_policies: arr(o.cancellationRules)
      .filter((r) => Number(r.feeValue) > 0)
      .map((r) => ({
        from: new Date(startMs - Number(r.metricMax ?? 0) * 3_600_000).toISOString(),
        fee: { currency, amount_minor: percentOf(total, Number(r.feeValue)) },
      })),
    expires_at: expiresAt,
  };
}

export function bookingFromAmadeus(order: Wire): SupplierTransferBooking {
  const t = obj(arr(order.transfers)[0]);
  const q = obj(t.quotation);
  const currency = s(q.currencyCode) as Currency;
  return {
    supplier: 'amadeus_transfers',
    booking_ref: s(order.id),
    confirmation_number: s(t.confirmNbr),
    status: s(t.status) === 'CANCELLED' ? 'cancelled' : 'confirmed',
    total: { currency, amount_minor: toMinor(q.monetaryAmount, currency) },
    raw: order,
  };
}
