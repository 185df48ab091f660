/** OnePoint wire shapes: FareSourceCode, PricedItinerary, money and the HTTP-200 error envelope. */
import { HttpResponse } from 'msw';
import { decimals, moneyText } from '../../shared/kit.ts';
import { type Itinerary, type SearchKey, totals } from './data.ts';

/** FareSourceCode: opaque to clients; here the search, the index and when it was issued. */
export interface FareSource {
  key: SearchKey;
  index: number;
  issuedAt: number;
  /** Price uplift in percent applied after a Revalidate price change. */
  drift: number;
}

export function encodeFsc(f: FareSource): string {
  return Buffer.from(JSON.stringify(f)).toString('base64url');
}

export function decodeFsc(code: unknown): FareSource | undefined {
  if (typeof code !== 'string' || code.length < 8) return undefined;
  try {
    const f = JSON.parse(Buffer.from(code, 'base64url').toString('utf8')) as FareSource;
    return Array.isArray(f.key?.legs) && typeof f.index === 'number' ? f : undefined;
  } catch {
    return undefined;
  }
}

export function money(minor: number, currency: string) {
  return { Amount: moneyText(minor, currency), CurrencyCode: currency, DecimalPlaces: decimals(currency) };
}

export function withDrift(it: Itinerary, drift: number): Itinerary {
  if (!drift) return it;
  const k = 1 + drift / 100;
  return { ...it, fares: it.fares.map((f) => ({ ...f, base: Math.round(f.base * k) })) };
}

export function pricedItinerary(it: Itinerary, fsc: string, sequence: number) {
  const t = totals(it);
  const c = it.currency;
  return {
    SequenceNumber: sequence,
    DirectionInd: it.legs.length > 1 ? 'Return' : 'OneWay',
    IsPassportMandatory: !it.carrier.lcc,
    TicketType: 'eTicket',
    ValidatingAirlineCode: it.carrier.code,
    AirItineraryPricingInfo: {
      FareSourceCode: fsc,
      FareType: it.carrier.lcc ? 'WebFare' : 'Public',
      IsRefundable: it.refundable ? 'Yes' : 'No',
      IsChangeable: it.changeable ? 'Yes' : 'No',
      FareFamily: it.fareFamily,
      ItinTotalFare: {
        BaseFare: money(t.base, c),
        TotalTax: money(t.tax, c),
        TotalFare: money(t.total, c),
      },
      PTC_FareBreakdowns: it.fares.map((f) => ({
        PassengerTypeQuantity: { Code: f.code, Quantity: f.qty },
        PassengerFare: {
          BaseFare: money(f.base, c),
          Taxes: [{ TaxCode: 'YQ', ...money(f.tax, c) }],
          TotalFare: money(f.base + f.tax, c),
        },
        BaggageInfo: [it.checkedKg ? `${it.checkedKg}KG` : '0PC'],
        CabinBaggageInfo: ['7KG'],
        FareBasisCodes: [`${it.legs[0]?.[0]?.rbd ?? 'Y'}${it.refundable ? 'FLX' : 'SVR'}${it.carrier.code}`],
      })),
    },
    OriginDestinationOptions: it.legs.map((leg) => ({
      FlightSegments: leg.map((s) => ({
        DepartureAirportLocationCode: s.from,
        ArrivalAirportLocationCode: s.to,
        DepartureDateTime: s.dep,
        ArrivalDateTime: s.arr,
        StopQuantity: 0,
        FlightNumber: s.flightNumber,
        ResBookDesigCode: s.rbd,
        JourneyDuration: s.minutes,
        MarketingAirlineCode: s.carrier,
        OperatingAirline: { Code: s.operating, FlightNumber: s.flightNumber, Equipment: s.equipment },
        CabinClassCode: it.cabin,
        Eticket: true,
        SeatsRemaining: { Number: 4 + ((it.index * 3) % 5), BelowMinimum: false },
      })),
    })),
  };
}

/** OnePoint answers business errors with HTTP 200 and `Success: false`. */
export function fail(code: string, message: string) {
  return HttpResponse.json({
    Success: false,
    Data: null,
    Message: message,
    Errors: [{ Code: code, Message: message }],
  });
}

export function ok(data: unknown) {
  return HttpResponse.json({ Success: true, Data: data, Message: null, Errors: [] });
}

export async function readJson(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body = (await request.json()) as unknown;
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
