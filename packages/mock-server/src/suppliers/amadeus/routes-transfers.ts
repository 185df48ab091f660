import type { HttpHandler } from 'msw';
import { drive, pointOf, transferEur } from '../../shared/destinations.ts';
import { hashString, rngFor } from '../../shared/random.ts';
import type { Router } from './kit.ts';
import { EUR_RATE } from './reference.ts';
import type { AmadeusState } from './state.ts';
import { hasLastName, LAST_NAME_TRIGGERS as T } from './triggers.ts';
import {
  AmadeusError,
  asArray,
  asObject,
  errorResponse,
  invalid,
  json,
  missing,
  money,
  notFound,
  readJson,
  str,
  systemError,
  type Wire,
} from './wire.ts';

/** Transfer Search, Transfer Booking, Transfer Management; plus our GET/lookup extensions. */

const VEHICLES = [
  { code: 'CAR', category: 'ST', description: 'Toyota Camry or similar', seats: 3, bags: 3, eur: 1 },
  {
    code: 'CAR',
    category: 'BU',
    description: 'Mercedes-Benz E-Class or similar',
    seats: 3,
    bags: 3,
    eur: 1.6,
  },
  { code: 'VAN', category: 'ST', description: 'Mercedes-Benz Vito or similar', seats: 7, bags: 7, eur: 1.5 },
  {
    code: 'VAN',
    category: 'BU',
    description: 'Mercedes-Benz V-Class or similar',
    seats: 6,
    bags: 6,
    eur: 2.1,
  },
  { code: 'SHT', category: 'ST', description: 'Shared shuttle coach', seats: 30, bags: 30, eur: 0.35 },
];
const PROVIDERS = [
  { code: 'ABC', name: 'Blacklane' },
  { code: 'WTR', name: 'Welcome Pickups' },
  { code: 'TSF', name: 'Transfeero' },
];
const OFFER_TTL_MS = 30 * 60_000;

function endpoint(body: Wire, side: 'start' | 'end'): Wire {
  const code = str(body[`${side}LocationCode`]);
  if (code) return { locationCode: code };
  const geo = str(body[`${side}GeoCode`])?.split(',').map(Number);
  const address: Wire = {
    line: str(body[`${side}AddressLine`]) ?? '',
    countryCode: str(body[`${side}CountryCode`]) ?? 'ZZ',
    cityName: str(body[`${side}CityName`]) ?? '',
  };
  if (geo?.length === 2) {
    address.latitude = geo[0];
    address.longitude = geo[1];
  }
  const out: Wire = { address };
  const name = str(body[`${side}Name`]);
  if (name) out.name = name;
  return out;
}

export function transferRoutes(r: Router, state: AmadeusState): HttpHandler[] {
  const seed = state.options.seed;
  return [
    r.post('/v1/shopping/transfer-offers', async ({ request }) => {
      const body = await readJson(request);
      const startDateTime = str(body.startDateTime);
      if (!startDateTime) throw missing('/startDateTime');
      if (!str(body.startLocationCode) && !str(body.startAddressLine) && !str(body.startGeoCode))
        throw missing('/startLocationCode');
      if (!str(body.endLocationCode) && !str(body.endAddressLine) && !str(body.endGeoCode))
        throw missing('/endLocationCode');
      const type = str(body.transferType);
      if (type && !['PRIVATE', 'SHARED', 'TAXI', 'HOURLY', 'AIRPORT_EXPRESS', 'AIRPORT_BUS'].includes(type))
        throw invalid('/transferType', 'Transfer type is not valid');
      const passengers = Number(body.passengers ?? 1);
      const currency = str(body.currency) ?? 'EUR';
      const key = JSON.stringify([
        body.startLocationCode,
        body.startAddressLine,
        body.startGeoCode,
        body.endLocationCode,
        body.endAddressLine,
        body.endGeoCode,
        startDateTime,
      ]);
      // The real drive between the ends where they have coordinates (an IATA code or a geo code), priced
      // by distance, vehicle and the destination's price level (`shared/destinations.ts`).
      const a = pointOf(str(body.startLocationCode) ?? str(body.startGeoCode));
      const b = pointOf(str(body.endLocationCode) ?? str(body.endGeoCode));
      const country =
        [a?.country, b?.country, str(body.endCountryCode), str(body.startCountryCode)].find(
          (c) => c && c !== 'ZZ',
        ) ?? 'ES';
      const { km } = drive(a, b, `${seed ?? 0}|${key}`);
      const data = VEHICLES.filter((v) => v.seats >= passengers)
        .filter((v) => !type || (type === 'SHARED' ? v.code === 'SHT' : v.code !== 'SHT'))
        .map((v, i) => {
          const provider = PROVIDERS[(hashString(key) + i) % PROVIDERS.length] as (typeof PROVIDERS)[number];
          const eur = transferEur(km, v.eur, country) * (v.code === 'SHT' ? passengers : 1);
          const baseMinor = Math.round(eur * (EUR_RATE[currency] ?? 1)) * 100;
          const taxMinor = Math.round((baseMinor * 0.1) / 100) * 100;
          const id = String(hashString(`${seed ?? 0}|${key}|${i}`));
          const offer: Wire = {
            type: 'transfer-offer',
            id,
            transferType: v.code === 'SHT' ? 'SHARED' : (type ?? 'PRIVATE'),
            start: { dateTime: startDateTime, ...endpoint(body, 'start') },
            end: endpoint(body, 'end'),
            vehicle: {
              code: v.code,
              category: v.category,
              description: v.description,
              seats: [{ count: v.seats }],
              baggages: [{ count: v.bags, size: 'M' }],
            },
            serviceProvider: {
              code: provider.code,
              name: provider.name,
              logoUrl: `https://providers.example/${provider.code}.png`,
            },
            quotation: {
              monetaryAmount: money(baseMinor + taxMinor),
              currencyCode: currency,
              isEstimated: false,
              base: { monetaryAmount: money(baseMinor) },
              totalTaxes: { monetaryAmount: money(taxMinor) },
            },
            methodsOfPaymentAccepted: ['CREDIT_CARD', 'TRAVEL_ACCOUNT'],
            cancellationRules: [
              {
                feeType: 'PERCENTAGE',
                feeValue: '0',
                metricType: 'HOURS',
                metricMin: '24',
                metricMax: '8760',
              },
              {
                feeType: 'PERCENTAGE',
                feeValue: '100',
                metricType: 'HOURS',
                metricMin: '0',
                metricMax: '24',
              },
            ],
            distance: { value: km, unit: 'KM' },
          };
          state.transferOffers.set(id, { offer, expiresAt: state.now() + OFFER_TTL_MS });
          return offer;
        });
      return json({
        data,
        warnings: data.length
          ? undefined
          : [{ code: 101, title: 'NO OFFERS', detail: 'No transfer offers found' }],
      });
    }),
    r.post('/v1/ordering/transfer-orders', async ({ request, url }) => {
      const offerId = url.searchParams.get('offerId');
      if (!offerId)
        throw new AmadeusError(400, 32171, 'MANDATORY DATA MISSING', 'offerId is mandatory', {
          parameter: 'offerId',
        });
      const data = asObject((await readJson(request)).data);
      if (!data) throw missing('/data');
      const passengers = asArray(data.passengers);
      if (passengers.length === 0) throw missing('/data/passengers');
      const method = str(asObject(data.payment)?.methodOfPayment);
      if (!method) throw missing('/data/payment/methodOfPayment');
      if (!['CREDIT_CARD', 'TRAVEL_ACCOUNT', 'PAYMENT_SERVICE_PROVIDER'].includes(method))
        throw invalid('/data/payment/methodOfPayment', 'Method of payment is not valid');
      const held = state.transferOffers.get(offerId);
      if (!held || held.expiresAt <= state.now())
        throw new AmadeusError(400, 36803, 'OFFER EXPIRED', 'The transfer offer is unknown or expired', {
          parameter: 'offerId',
        });
      if (hasLastName(data, T.REJECT))
        throw new AmadeusError(400, 34651, 'SEGMENT SELL FAILURE', 'The provider rejected the reservation');
      const n = state.next('transfer');
      const id = Buffer.from(`TRF|${offerId}|${n}`).toString('base64url');
      const clientReference =
        request.headers.get('x-client-reference') ?? str(asObject(asObject(data.corporation)?.info)?.CR);
      const order: Wire = {
        type: 'transfer-order',
        id,
        reference: rngFor(seed, 'tref', n).code(6),
        transfers: [
          {
            ...held.offer,
            status: 'CONFIRMED',
            confirmNbr: String(1_000_000 + (hashString(id) % 9_000_000)),
            offerId,
            note: data.note,
            methodOfPayment: asObject(data.payment)?.methodOfPayment,
          },
        ],
        passengers,
      };
      state.transferOrders.set(id, { id, clientReference, data: order });
      if (hasLastName(data, T.PENDING)) return errorResponse(systemError());
      return json({ data: order }, 201);
    }),
    r.post('/v1/ordering/transfer-orders/:orderId/transfers/cancellation', ({ params, url }) => {
      const confirmNbr = url.searchParams.get('confirmNbr');
      if (!confirmNbr)
        throw new AmadeusError(400, 32171, 'MANDATORY DATA MISSING', 'confirmNbr is mandatory', {
          parameter: 'confirmNbr',
        });
      const rec = state.transferOrders.get(params.orderId ?? '');
      const transfer = asArray(rec?.data.transfers).find((t) => t.confirmNbr === confirmNbr);
      if (!rec || !transfer) throw notFound('orderId', 'no response found for this query parameter');
      transfer.status = 'CANCELLED';
      return json({ data: { confirmNbr, reservationStatus: 'CANCELLED' } });
    }),
    // Our extensions: read back an order, and find it by our client reference after an ambiguous create.
    r.get('/v1/ordering/transfer-orders/:orderId', ({ params }) => {
      const rec = state.transferOrders.get(params.orderId ?? '');
      if (!rec) throw notFound('orderId', 'no response found for this query parameter');
      return json({ data: rec.data });
    }),
    r.get('/v1/ordering/transfer-orders', ({ url }) => {
      const ref = url.searchParams.get('clientReference');
      if (!ref)
        throw new AmadeusError(400, 32171, 'MANDATORY DATA MISSING', 'clientReference is mandatory', {
          parameter: 'clientReference',
        });
      const data = [...state.transferOrders.values()]
        .filter((o) => o.clientReference === ref)
        .map((o) => o.data);
      return json({ meta: { count: data.length }, data });
    }),
  ];
}
