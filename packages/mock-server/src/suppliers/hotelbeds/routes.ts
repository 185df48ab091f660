/** Hotelbeds availability, checkrates and booking creation (the stateful part lives in index.ts). */

import { HttpResponse } from 'msw';
import { moneyText } from '../../shared/money.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { hashString } from '../../shared/random.ts';
import {
  auditData,
  bookingBody,
  feeAt,
  hbError,
  lostAnswer,
  readBody,
  refusedBooking,
  surnameTrigger,
} from './auth.ts';
import {
  BOARDS,
  cityOf,
  decodeRateKey,
  distanceKm,
  encodeRateKey,
  geoDestination,
  hotelsFor,
  policiesOf,
  type RateData,
  ratesFor,
  type StayKey,
} from './data.ts';

export interface HotelBooking {
  reference: string;
  clientReference: string;
  status: 'CONFIRMED' | 'CANCELLED';
  createdAt: number;
  holder: { name: string; surname: string };
  rate: RateData;
  rateKey: string;
  paxes: { roomId: number; type: string; name: string; surname: string; age?: number }[];
  remark: string;
  policies: { amount: string; from: string }[];
  cancellationReference: string | undefined;
  cancellationAmountCents: number;
}

const eur = (cents: number) => moneyText(cents, 'EUR');

function rateView(rate: RateData, now: number) {
  return {
    rateKey: encodeRateKey(rate),
    rateClass: rate.rateClass,
    rateType: rate.rateType,
    net: eur(rate.netCents),
    allotment: rate.allotment,
    paymentType: 'AT_WEB',
    packaging: false,
    boardCode: rate.board,
    boardName: BOARDS[rate.board],
    cancellationPolicies: policiesOf(rate, now),
    taxes: {
      allIncluded: true,
      taxes: [{ included: true, amount: eur(Math.round(rate.netCents * 0.1)), currency: 'EUR' }],
    },
    rooms: rate.key.rooms,
    adults: rate.key.adults,
    children: rate.key.children,
    ...(rate.key.childAges.length ? { childrenAges: rate.key.childAges.join(',') } : {}),
  };
}

function hotelHead(rate: RateData) {
  const h = rate.hotel;
  return {
    code: h.code,
    name: h.name,
    categoryCode: `${h.stars}EST`,
    categoryName: `${h.stars} STARS`,
    destinationCode: h.destinationCode,
    destinationName: h.destinationName,
    countryCode: h.country,
    address: h.address,
    zoneCode: 1,
    zoneName: h.destinationName,
    latitude: String(h.latitude),
    longitude: String(h.longitude),
  };
}

function roomsOf(rates: RateData[], now: number) {
  const byRoom = new Map<string, RateData[]>();
  for (const r of rates) byRoom.set(r.roomCode, [...(byRoom.get(r.roomCode) ?? []), r]);
  return [...byRoom.entries()].map(([code, rs]) => ({
    code,
    name: rs[0]?.roomName,
    rates: rs.map((r) => rateView(r, now)),
  }));
}

function stayKey(body: Record<string, unknown>): StayKey | string {
  const stay = (body.stay ?? {}) as Record<string, unknown>;
  const checkIn = String(stay.checkIn ?? '');
  const checkOut = String(stay.checkOut ?? '');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(checkIn) || !/^\d{4}-\d{2}-\d{2}$/.test(checkOut) || checkOut <= checkIn) {
    return 'stay.checkIn and stay.checkOut are required (YYYY-MM-DD, checkOut after checkIn).';
  }
  const occ = Array.isArray(body.occupancies) ? (body.occupancies as Record<string, unknown>[]) : [];
  if (occ.length === 0) return 'occupancies is required.';
  let rooms = 0;
  let adults = 0;
  let children = 0;
  const childAges: number[] = [];
  for (const o of occ) {
    rooms += Number(o.rooms ?? 0);
    adults += Number(o.adults ?? 0);
    children += Number(o.children ?? 0);
    for (const p of (o.paxes ?? []) as Record<string, unknown>[])
      if (p.type === 'CH') childAges.push(Number(p.age));
  }
  if (rooms < 1 || adults < rooms) return 'Each room needs at least one adult.';
  if (childAges.length !== children) return 'A CH pax with an age is required for every child.';
  return { checkIn, checkOut, destination: '', rooms, adults, children, childAges };
}

export async function availability(
  options: EmulatorOptions,
  request: Request,
  now: number,
): Promise<Response> {
  const body = await readBody(request);
  if (!body) return hbError(400, 'INVALID_REQUEST', 'Body must be JSON.');
  const key = stayKey(body);
  if (typeof key === 'string') return hbError(400, 'INVALID_REQUEST', key);
  const dest = body.destination as { code?: string } | undefined;
  const geo = body.geolocation as { latitude?: number; longitude?: number; radius?: number } | undefined;
  let center: { lat: number; lon: number } | undefined;
  if (dest?.code) key.destination = String(dest.code).toUpperCase();
  else if (geo && typeof geo.latitude === 'number' && typeof geo.longitude === 'number') {
    // The point itself is the destination code, so a rateKey rebuilds the same hotels in the same city.
    key.destination = geoDestination(geo.latitude, geo.longitude);
    const point = cityOf(key.destination);
    center = { lat: point.lat, lon: point.lon };
  } else return hbError(400, 'INVALID_REQUEST', 'One of destination, geolocation or hotels is required.');
  const filter = (body.filter ?? {}) as { minCategory?: number; maxHotels?: number };
  const city = center ?? { lat: cityOf(key.destination).lat, lon: cityOf(key.destination).lon };
  const hotels = hotelsFor(options, key.destination, center)
    .filter((h) => !filter.minCategory || h.stars >= filter.minCategory)
    .filter((h) => !geo?.radius || distanceKm(city, { lat: h.latitude, lon: h.longitude }) <= geo.radius)
    .slice(0, filter.maxHotels ?? 250)
    .map((h) => {
      const rates = ratesFor(options, key, h);
      const nets = rates.map((r) => r.netCents);
      return {
        ...hotelHead(rates[0] as RateData),
        ...(center ? { distance: distanceKm(city, { lat: h.latitude, lon: h.longitude }).toFixed(3) } : {}),
        rooms: roomsOf(rates, now),
        minRate: eur(Math.min(...nets)),
        maxRate: eur(Math.max(...nets)),
        currency: 'EUR',
      };
    });
  return HttpResponse.json({
    auditData: auditData(now),
    hotels: { hotels, checkIn: key.checkIn, checkOut: key.checkOut, total: hotels.length },
  });
}

/** Re-checks rates. Trigger XPC moves the price once (+8%, new rateKey); XSO is sold out. */
export async function checkRates(
  options: EmulatorOptions,
  state: { checked: Set<string> },
  request: Request,
  now: number,
): Promise<Response> {
  const body = await readBody(request);
  const rooms = Array.isArray(body?.rooms) ? (body.rooms as { rateKey?: string }[]) : [];
  if (rooms.length === 0 || !rooms[0]?.rateKey)
    return hbError(400, 'INVALID_REQUEST', 'rooms[].rateKey is required.');
  const rate = decodeRateKey(options, rooms[0].rateKey);
  if (!rate) return hbError(400, 'INVALID_DATA', 'The rateKey is not valid.');
  if (rate.key.destination === 'XSO')
    return hbError(400, 'INSUFFICIENT_ALLOTMENT', 'Insufficient allotment for the selected rate.');
  let fresh: RateData = { ...rate, rateType: 'BOOKABLE' };
  if (rate.key.destination === 'XPC' && rate.drift === 0) {
    fresh = { ...fresh, drift: 8, netCents: Math.round(rate.netCents * 1.08) };
  }
  state.checked.add(encodeRateKey(fresh));
  const view = {
    ...rateView(fresh, now),
    rateComments: 'Check-in from 14:00. City tax payable at the hotel.',
  };
  return HttpResponse.json({
    auditData: auditData(now),
    hotel: {
      checkIn: rate.key.checkIn,
      checkOut: rate.key.checkOut,
      ...hotelHead(fresh),
      rooms: [{ code: fresh.roomCode, name: fresh.roomName, rates: [view] }],
      totalNet: eur(fresh.netCents),
      currency: 'EUR',
    },
  });
}

export function bookingView(b: HotelBooking, now?: number) {
  const cancellationAmount =
    now === undefined
      ? undefined
      : b.status === 'CANCELLED'
        ? Number(moneyText(b.cancellationAmountCents, 'EUR'))
        : feeAt(b.policies, now);
  return {
    reference: b.reference,
    clientReference: b.clientReference,
    creationDate: new Date(b.createdAt).toISOString().slice(0, 10),
    status: b.status,
    ...(b.cancellationReference ? { cancellationReference: b.cancellationReference } : {}),
    modificationPolicies: { cancellation: b.status === 'CONFIRMED', modification: false },
    creationUser: 'emulator',
    holder: b.holder,
    hotel: {
      checkIn: b.rate.key.checkIn,
      checkOut: b.rate.key.checkOut,
      ...hotelHead(b.rate),
      ...(cancellationAmount === undefined ? {} : { cancellationAmount: cancellationAmount.toFixed(2) }),
      rooms: [
        {
          status: b.status,
          id: 1,
          code: b.rate.roomCode,
          name: b.rate.roomName,
          paxes: b.paxes,
          rates: [{ ...rateView(b.rate, b.createdAt), cancellationPolicies: b.policies }],
        },
      ],
      totalNet: eur(b.rate.netCents),
      currency: 'EUR',
      supplier: { name: 'HOTELBEDS DMCC', vatNumber: 'AE100000000000003' },
    },
    remark: b.remark,
    invoiceCompany: { code: 'E14', company: 'HOTELBEDS DMCC', registrationNumber: '1234567' },
    totalNet: Number(eur(b.rate.netCents)),
    pendingAmount: Number(eur(b.rate.netCents)),
    currency: 'EUR',
  };
}

export async function createBooking(
  options: EmulatorOptions,
  state: { bookings: Map<string, HotelBooking>; checked: Set<string> },
  request: Request,
  now: number,
): Promise<Response> {
  const body = await bookingBody(request);
  if (body instanceof Response) return body;
  const holder = (body.holder ?? {}) as { name?: string; surname?: string };
  if (!holder.name || !holder.surname)
    return hbError(400, 'INVALID_REQUEST', 'holder.name and holder.surname are required.');
  const clientReference = body.clientReference;
  if (typeof clientReference !== 'string' || !clientReference || clientReference.length > 20) {
    return hbError(400, 'INVALID_REQUEST', 'clientReference is required (at most 20 characters).');
  }
  const room = (Array.isArray(body.rooms) ? body.rooms[0] : undefined) as
    | { rateKey?: string; paxes?: HotelBooking['paxes'] }
    | undefined;
  const rate = room?.rateKey ? decodeRateKey(options, room.rateKey) : undefined;
  if (!room?.rateKey || !rate) return hbError(400, 'INVALID_DATA', 'rooms[].rateKey is not valid.');
  if (rate.key.destination === 'XSO')
    return hbError(400, 'INSUFFICIENT_ALLOTMENT', 'Insufficient allotment for the selected rate.');
  if (rate.rateType === 'RECHECK' && rate.drift === 0 && !state.checked.has(room.rateKey)) {
    return hbError(400, 'INVALID_DATA', 'This rate must be confirmed with checkrates before booking.');
  }
  if (rate.key.destination === 'XPC' && rate.drift === 0) {
    return hbError(400, 'PRICE_CHANGED', 'The price of the rate has changed; call checkrates again.');
  }
  const paxes = room.paxes ?? [];
  if (paxes.length > 0 && paxes.filter((p) => p.type === 'AD').length !== rate.key.adults) {
    return hbError(400, 'INVALID_DATA', 'The paxes do not match the occupancy of the rate.');
  }
  const trigger = surnameTrigger([holder.surname, ...paxes.map((p) => p.surname)]);
  const refused = refusedBooking(trigger, 'the hotel');
  if (refused) return refused;
  // A reference names one booking for good: the next number while it is taken.
  let reference = '';
  for (let seq = state.bookings.size + 1; !reference || state.bookings.has(reference); seq++)
    reference = `1-${String(3_000_000 + (hashString(`${options.seed ?? 42}:hb:${seq}`) % 6_999_999))}`;
  const booking: HotelBooking = {
    reference,
    clientReference,
    status: 'CONFIRMED',
    createdAt: now,
    holder: { name: holder.name, surname: holder.surname },
    rate,
    rateKey: room.rateKey,
    paxes,
    remark: typeof body.remark === 'string' ? body.remark : '',
    policies: policiesOf(rate, now),
    cancellationReference: undefined,
    cancellationAmountCents: 0,
  };
  state.bookings.set(reference, booking);
  const lost = await lostAnswer(trigger, request.signal);
  if (lost) return lost;
  return HttpResponse.json({ auditData: auditData(now), booking: bookingView(booking) });
}
