/** CreateSession, Search, Revalidate and FareRules. */

import { hashString } from '../../shared/random.ts';
import type { Ctx } from './context.ts';
import { route } from './context.ts';
import { CABIN_CODES, type CabinCode, generate, itineraryAt, type SearchKey } from './data.ts';
import { FSC_TTL_MS, SESSION_TTL_MS } from './state.ts';
import { decodeFsc, encodeFsc, type FareSource, fail, ok, pricedItinerary, withDrift } from './wire.ts';

const DEFAULT_CREDENTIALS = {
  userName: 'mystifly_user',
  password: 'mystifly_pass',
  accountNumber: 'MCN004085',
};

function searchKey(body: Record<string, unknown>): SearchKey | string {
  const odis = body.OriginDestinationInformations;
  if (!Array.isArray(odis) || odis.length === 0) return 'OriginDestinationInformations is required.';
  const legs: [string, string, string][] = [];
  for (const o of odis as Record<string, unknown>[]) {
    const from = o.OriginLocationCode;
    const to = o.DestinationLocationCode;
    const date = String(o.DepartureDateTime ?? '').slice(0, 10);
    if (typeof from !== 'string' || typeof to !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      return 'OriginLocationCode, DestinationLocationCode and DepartureDateTime are required.';
    }
    legs.push([from.toUpperCase(), to.toUpperCase(), date]);
  }
  const prefs = (body.TravelPreferences ?? {}) as Record<string, unknown>;
  const cabin = String(prefs.CabinPreference ?? 'Y') as CabinCode;
  if (!(cabin in CABIN_CODES)) return 'CabinPreference must be one of Y, S, C, F.';
  const ptq = Array.isArray(body.PassengerTypeQuantities)
    ? (body.PassengerTypeQuantities as Record<string, unknown>[])
    : [];
  const qty = (code: string) => Number(ptq.find((p) => p.Code === code)?.Quantity ?? 0);
  const pax: [number, number, number] = [qty('ADT'), qty('CHD'), qty('INF')];
  if (pax[0] < 1) return 'At least one ADT passenger is required.';
  if (pax[2] > pax[0]) return 'Infants cannot outnumber adults.';
  const vendors = prefs.VendorPreferenceCodes;
  const key: SearchKey = {
    legs,
    cabin,
    pax,
    currency: typeof body.CurrencyCode === 'string' ? body.CurrencyCode : 'USD',
    trip: String(prefs.AirTripType ?? 'OneWay'),
  };
  if (Array.isArray(vendors) && typeof vendors[0] === 'string') key.carrier = vendors[0];
  return key;
}

export function searchRoutes(ctx: Ctx) {
  const creds = ctx.options.credentials ?? DEFAULT_CREDENTIALS;
  return [
    route(
      ctx,
      'post',
      '/api/v1/CreateSession',
      ({ body }) => {
        if (body.UserName !== creds.userName || body.Password !== creds.password) {
          return fail('ERSER001', 'Invalid UserName or Password.');
        }
        if (body.AccountNumber !== creds.accountNumber) return fail('ERSER003', 'Invalid AccountNumber.');
        const id = `${hashString(`${ctx.state.counter}:${ctx.now()}`).toString(16).toUpperCase()}-${ctx.state.counter}`;
        const expiresAt = ctx.now() + SESSION_TTL_MS;
        ctx.state.sessions.set(id, { id, expiresAt });
        return ok({
          SessionId: id,
          SessionStatus: true,
          Target: 'Test',
          ExpiresOn: new Date(expiresAt).toISOString(),
        });
      },
      { auth: false },
    ),
    route(ctx, 'post', '/api/v2/Search/Flight', ({ body }) => {
      const key = searchKey(body);
      if (typeof key === 'string') return fail('ERSEA002', key);
      const refundableOnly = body.IsRefundable === true;
      const issuedAt = ctx.now();
      const itineraries = generate(ctx.options, key).filter((i) => !refundableOnly || i.refundable);
      if (itineraries.length === 0)
        return fail('ERSEA001', 'No flights found for the given search criteria.');
      const priced = itineraries.map((it, n) =>
        pricedItinerary(it, encodeFsc({ key, index: it.index, issuedAt, drift: 0 }), n + 1),
      );
      return ok({ PricedItineraries: priced, ConversationId: body.ConversationId ?? null });
    }),
    route(ctx, 'post', '/api/v1/Revalidate/Flight', ({ body }) => {
      const fs = decodeFsc(body.FareSourceCode);
      if (!fs) return fail('ERREV003', 'FareSourceCode is invalid.');
      if (ctx.now() - fs.issuedAt > FSC_TTL_MS)
        return fail('ERREV001', 'FareSourceCode has expired. Please search again.');
      const trigger = fs.key.legs[0]?.[1];
      if (trigger === 'XSO') return fail('ERREV002', 'The selected fare is no longer available.');
      // XPC: the fare moves once; the new FareSourceCode then revalidates at its own price.
      const next: FareSource =
        trigger === 'XPC' && fs.drift === 0 ? { ...fs, drift: 7, issuedAt: ctx.now() } : fs;
      const found = itineraryAt(ctx.options, fs.key, fs.index, trigger);
      if (!found) return fail('ERREV003', 'FareSourceCode is invalid.');
      const it = withDrift(found, next.drift);
      return ok({
        IsValid: true,
        PricedItineraries: [pricedItinerary(it, encodeFsc(next), 1)],
        ExtraServices: { Services: [] },
      });
    }),
    route(ctx, 'post', '/api/v1/FlightFareRules', ({ body }) => {
      const fs = decodeFsc(body.FareSourceCode);
      if (!fs) return fail('ERFRU001', 'FareSourceCode is invalid.');
      const it = itineraryAt(ctx.options, fs.key, fs.index, fs.key.legs[0]?.[1]);
      if (!it) return fail('ERFRU001', 'FareSourceCode is invalid.');
      const first = it.legs[0]?.[0];
      const last = it.legs[0]?.at(-1);
      const refund = it.refundable
        ? 'CANCELLATIONS PERMITTED. CHARGE 10 PERCENT OF BASE FARE FOR CANCEL/REFUND.'
        : 'TICKET IS NON-REFUNDABLE. TAXES REFUNDABLE ONLY.';
      const change = it.changeable
        ? 'CHANGES PERMITTED ANY TIME. CHARGE APPLIES PLUS FARE DIFFERENCE.'
        : 'CHANGES NOT PERMITTED.';
      return ok({
        FareRules: [
          {
            Airline: it.carrier.code,
            CityPair: `${first?.from ?? ''}-${last?.to ?? ''}`,
            RuleDetails: [
              { Category: 'PENALTIES', Rules: `${refund} ${change}` },
              { Category: 'VOID', Rules: 'VOID PERMITTED WITHIN 24 HOURS OF TICKET ISSUANCE.' },
              {
                Category: 'BAGGAGE',
                Rules: it.checkedKg ? `${it.checkedKg}KG CHECKED BAGGAGE.` : 'NO FREE CHECKED BAGGAGE.',
              },
            ],
          },
        ],
      });
    }),
  ];
}
