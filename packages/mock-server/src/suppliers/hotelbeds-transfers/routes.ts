/** Transfer availability and booking creation. */

import { HttpResponse } from 'msw';
import { pointOf } from '../../shared/destinations.ts';
import { moneyText, textToMinor } from '../../shared/money.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { hashString } from '../../shared/random.ts';
import { place as airport } from '../../shared/world.ts';
import {
  bookingBody,
  feeAt,
  hbError,
  lostAnswer,
  refusedBooking,
  surnameTrigger,
} from '../hotelbeds/auth.ts';
import {
  decodeKey,
  driveOf,
  encodeKey,
  minutesOf,
  policiesOf,
  priceCents,
  type TransferKey,
  VEHICLES,
} from './data.ts';

export interface TransferBooking {
  reference: string;
  clientReference: string;
  status: 'CONFIRMED' | 'CANCELLED';
  createdAt: number;
  cancelledAt: number | undefined;
  holder: { name: string; surname: string; email: string; phone: string };
  keys: TransferKey[];
  details: unknown[];
  remark: string;
}

const TYPES = new Set(['IATA', 'ATLAS', 'GPS', 'PORT', 'STATION', 'GIATA']);
const eur = (c: number) => moneyText(c, 'EUR');

function place(type: string, code: string) {
  const point = pointOf(code);
  const description =
    type === 'IATA'
      ? point
        ? airport(code).name
        : `${code} Airport`
      : type === 'GPS'
        ? point?.name
          ? `${point.name} (${code})`
          : `Location ${code}`
        : `Hotel ${code}`;
  return { code, description, type };
}

function service(options: EmulatorOptions, k: TransferKey, id: number) {
  const v = VEHICLES[k.vehicle] ?? VEHICLES[0];
  const cents = priceCents(options, k);
  const minutes = minutesOf(options, k);
  return {
    id,
    direction: k.direction,
    transferType: v.transferType,
    vehicle: v.vehicle,
    category: v.category,
    pickupInformation: {
      from: place(k.fromType, k.fromCode),
      to: place(k.toType, k.toCode),
      date: k.datetime.slice(0, 10),
      time: k.datetime.slice(11, 19),
      pickup: {
        address: null,
        description: 'Meet the driver at the arrivals hall holding a name sign.',
        checkPickup: { mustCheckPickupTime: false },
      },
    },
    minPaxCapacity: v.min,
    maxPaxCapacity: v.max,
    content: {
      vehicle: v.vehicle,
      category: v.category,
      images: [],
      transferDetailInfo: [
        { id: 'BAGGAGE', name: 'Luggage', description: '1 suitcase per person', type: 'GENERAL_INFO' },
      ],
      customerTransferTimeInfo: [{ value: minutes, type: 'TRANSFER_TIME', metric: 'minutes' }],
      supplierTransferTimeInfo: [{ value: 60, type: 'SUPPLIER_MAX_WAITING_TIME', metric: 'minutes' }],
      transferRemarks: [],
    },
    price: { totalAmount: Number(eur(cents)), netAmount: Number(eur(cents)), currencyId: 'EUR' },
    rateKey: encodeKey(k),
    cancellationPolicies: policiesOf(k, cents),
    distanceKm: driveOf(options, k).km,
    factsheetId: 1000 + k.vehicle,
  };
}

export function availability(
  options: EmulatorOptions,
  state: { searches: Map<string, number> },
  p: Record<string, string | undefined>,
  now: number,
): Response {
  const adults = Number(p.adults);
  const children = Number(p.children);
  const infants = Number(p.infants);
  if (!TYPES.has(p.fromType ?? '') || !TYPES.has(p.toType ?? '')) {
    return hbError(400, 'INVALID_REQUEST', 'fromType and toType must be IATA, ATLAS, GPS, PORT or STATION.');
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(p.outbound ?? '') || !(adults >= 1)) {
    return hbError(400, 'INVALID_REQUEST', 'outbound must be YYYY-MM-DDTHH:MM:SS and adults at least 1.');
  }
  const route = `${p.fromCode}|${p.toCode}|${p.outbound}`;
  const n = (state.searches.get(route) ?? 0) + 1;
  state.searches.set(route, n);
  const trigger = [p.fromCode, p.toCode].find((c) => c === 'XPC' || c === 'XSO');
  if (trigger === 'XSO' && n > 1) return new HttpResponse(null, { status: 204 });
  const drift = trigger === 'XPC' && n > 1 ? 9 : 0;
  const pax = adults + children;
  const services = [];
  const legs: [TransferKey['direction'], string, string, string, string, string][] = [
    [
      'DEPARTURE',
      p.fromType as string,
      p.fromCode as string,
      p.toType as string,
      p.toCode as string,
      p.outbound as string,
    ],
  ];
  if (p.inbound)
    legs.push([
      'RETURN',
      p.toType as string,
      p.toCode as string,
      p.fromType as string,
      p.fromCode as string,
      p.inbound,
    ]);
  for (const [vi, v] of VEHICLES.entries()) {
    if (pax < v.min || pax > v.max) continue;
    for (const [direction, fromType, fromCode, toType, toCode, datetime] of legs) {
      const k: TransferKey = {
        direction,
        fromType,
        fromCode,
        toType,
        toCode,
        datetime,
        adults,
        children,
        infants,
        vehicle: vi,
        drift,
      };
      services.push(service(options, k, services.length + 1));
    }
  }
  if (services.length === 0) return new HttpResponse(null, { status: 204 });
  const [date, time] = (p.outbound as string).split('T');
  return HttpResponse.json({
    search: {
      language: p.language,
      departure: { date, time },
      ...(p.inbound ? { comeBack: { date: p.inbound.slice(0, 10), time: p.inbound.slice(11) } } : {}),
      occupancy: { adults, children, infants },
      from: place(p.fromType as string, p.fromCode as string),
      to: place(p.toType as string, p.toCode as string),
    },
    services,
    generatedAt: new Date(now).toISOString(),
  });
}

export function view(options: EmulatorOptions, b: TransferBooking) {
  const transfers = b.keys.map((k, i) => ({
    ...service(options, k, i + 1),
    status: b.status,
    paxes: [{ ...b.holder, type: 'ADULT' }],
  }));
  const total = b.keys.reduce((s, k) => s + priceCents(options, k), 0);
  const fee =
    b.cancelledAt === undefined
      ? 0
      : b.keys.reduce(
          (s, k) =>
            s + textToMinor(feeAt(policiesOf(k, priceCents(options, k)), b.cancelledAt as number), 'EUR'),
          0,
        );
  return {
    reference: b.reference,
    bookingFileId: null,
    creationDate: new Date(b.createdAt).toISOString().slice(0, 19),
    status: b.status,
    modificationsPolicies: { cancellation: b.status === 'CONFIRMED', modification: false },
    holder: b.holder,
    transfers,
    clientReference: b.clientReference,
    remark: b.remark,
    invoiceCompany: { code: 'E14' },
    supplier: { name: 'HOTELBEDS DMCC', vatNumber: 'AE100000000000003' },
    totalAmount: Number(eur(total)),
    totalNetAmount: Number(eur(total)),
    pendingAmount: 0,
    currency: 'EUR',
    ...(b.cancelledAt === undefined ? {} : { cancellationAmount: Number(eur(fee)) }),
  };
}

export async function createBooking(
  options: EmulatorOptions,
  state: { bookings: Map<string, TransferBooking>; searches: Map<string, number> },
  request: Request,
  now: number,
): Promise<Response> {
  const body = await bookingBody(request);
  if (body instanceof Response) return body;
  const holder = (body.holder ?? {}) as Record<string, string | undefined>;
  if (!holder.name || !holder.surname || !holder.email || !holder.phone) {
    return hbError(400, 'INVALID_REQUEST', 'holder name, surname, email and phone are required.');
  }
  const clientReference = body.clientReference;
  if (typeof clientReference !== 'string' || !clientReference)
    return hbError(400, 'INVALID_REQUEST', 'clientReference is required.');
  const transfers = Array.isArray(body.transfers)
    ? (body.transfers as { rateKey?: string; transferDetails?: unknown[] }[])
    : [];
  const keys = transfers.map((t) => (t.rateKey ? decodeKey(t.rateKey) : undefined));
  if (keys.length === 0 || keys.some((k) => !k))
    return hbError(400, 'INVALID_DATA', 'transfers[].rateKey is not valid.');
  const valid = keys as TransferKey[];
  if (valid.some((k) => k.fromCode === 'XSO' || k.toCode === 'XSO')) {
    return hbError(400, 'INSUFFICIENT_ALLOTMENT', 'The selected service is no longer available.');
  }
  if (
    valid.some(
      (k) =>
        (k.fromCode === 'XPC' || k.toCode === 'XPC') &&
        k.drift === 0 &&
        (state.searches.get(`${k.fromCode}|${k.toCode}|${k.datetime}`) ?? 0) > 1,
    )
  ) {
    return hbError(400, 'PRICE_CHANGED', 'The price of the service has changed; search again.');
  }
  const trigger = surnameTrigger([holder.surname]);
  const refused = refusedBooking(trigger, 'the transfer provider');
  if (refused) return refused;
  // A reference names one booking for good: the next number while it is taken.
  let reference = '';
  for (let seq = state.bookings.size + 1; !reference || state.bookings.has(reference); seq++)
    reference = `102-${String(1_000_000 + (hashString(`${options.seed ?? 42}:tr:${seq}`) % 8_999_999))}`;
  const booking: TransferBooking = {
    reference,
    clientReference,
    status: 'CONFIRMED',
    createdAt: now,
    cancelledAt: undefined,
    holder: { name: holder.name, surname: holder.surname, email: holder.email, phone: holder.phone },
    keys: valid,
    details: transfers.map((t) => t.transferDetails ?? []),
    remark: typeof body.remark === 'string' ? body.remark : '',
  };
  state.bookings.set(reference, booking);
  const lost = await lostAnswer(trigger, request.signal);
  if (lost) return lost;
  return HttpResponse.json({ bookings: [view(options, booking)] });
}
