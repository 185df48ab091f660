/** Book, OrderTicket, TripDetails, Cancel, BookingNotes and the booking search by ConversationId. */
import { HttpResponse } from 'msw';
import { sleep } from '../../shared/kit.ts';
import { hashString } from '../../shared/random.ts';
import type { Ctx } from './context.ts';
import { gatewayError, route } from './context.ts';
import { itineraryAt, totals } from './data.ts';
import { settleTriggeredChange } from './schedule-changes.ts';
import {
  type Booking,
  FSC_TTL_MS,
  progress,
  STATUS,
  STATUS_TEXT,
  type Traveler,
  ticketNow,
} from './state.ts';
import { decodeFsc, fail, money, ok, withDrift } from './wire.ts';

function travelers(body: Record<string, unknown>): Traveler[] | string {
  const info = (body.TravelerInfo ?? {}) as Record<string, unknown>;
  const list = info.AirTravelers;
  if (!Array.isArray(list) || list.length === 0) return 'TravelerInfo.AirTravelers is required.';
  const out: Traveler[] = [];
  for (const t of list as Record<string, unknown>[]) {
    const name = (t.PassengerName ?? {}) as Record<string, unknown>;
    const passport = (t.Passport ?? {}) as Record<string, unknown>;
    if (
      !name.PassengerFirstName ||
      !name.PassengerLastName ||
      !t.DateOfBirth ||
      !t.Gender ||
      !t.PassengerType
    ) {
      return 'PassengerType, Gender, DateOfBirth, PassengerFirstName and PassengerLastName are required.';
    }
    out.push({
      type: String(t.PassengerType) as Traveler['type'],
      title: String(name.PassengerTitle ?? ''),
      first: String(name.PassengerFirstName),
      last: String(name.PassengerLastName),
      gender: String(t.Gender),
      dob: String(t.DateOfBirth).slice(0, 10),
      passport: String(passport.PassportNumber ?? ''),
    });
  }
  return out;
}

export function tripDetails(b: Booking) {
  const t = totals(b.itinerary);
  const c = b.itinerary.currency;
  let rph = 0;
  const items = b.itinerary.legs.flat().map((s) => ({
    ItemRPH: ++rph,
    DepartureDateTime: s.dep,
    ArrivalDateTime: s.arr,
    DepartureAirportLocationCode: s.from,
    ArrivalAirportLocationCode: s.to,
    FlightNumber: s.flightNumber,
    MarketingAirlineCode: s.carrier,
    OperatingAirlineCode: s.operating,
    ResBookDesigCode: s.rbd,
    CabinClassText: b.itinerary.cabin,
    AirlinePNR: b.pnr,
    JourneyDuration: s.minutes,
    AirEquipmentType: s.equipment,
    Baggage: b.itinerary.checkedKg ? `${b.itinerary.checkedKg}KG` : '0PC',
    StopQuantity: 0,
  }));
  const couponStatus =
    b.status === STATUS.voided ? 'VOID' : b.status === STATUS.refunded ? 'REFUNDED' : 'OPEN';
  const lcc = b.itinerary.carrier.lcc;
  return {
    TripDetailsResult: {
      Success: true,
      TravelItinerary: {
        MFRef: b.uniqueId,
        Status: b.status,
        BookingStatus: STATUS_TEXT[b.status],
        TicketStatus: b.status === STATUS.ticketed ? 'Ticketed' : STATUS_TEXT[b.status],
        ConversationId: b.conversationId,
        FareType: lcc ? 'WebFare' : 'Public',
        IsRefundable: b.itinerary.refundable ? 'Yes' : 'No',
        IsChangeable: b.itinerary.changeable ? 'Yes' : 'No',
        FareFamily: b.itinerary.fareFamily,
        ValidatingAirlineCode: b.itinerary.carrier.code,
        TktTimeLimit: new Date(b.tktTimeLimit).toISOString(),
        BookedOn: new Date(b.createdAt).toISOString(),
        TicketIssuedOn: b.ticketedAt ? new Date(b.ticketedAt).toISOString() : null,
        ItineraryInfo: {
          ReservationItems: items,
          CustomerInfos: b.travelers.map((p, i) => ({
            Customer: {
              PassengerType: p.type,
              PaxName: { PassengerTitle: p.title, PassengerFirstName: p.first, PassengerLastName: p.last },
              DateOfBirth: p.dob,
              Gender: p.gender,
              PassportNumber: p.passport,
            },
            ETickets: b.tickets[i]
              ? items.map((it) => ({
                  ETicketNumber: b.tickets[i],
                  ItemRPH: it.ItemRPH,
                  CouponStatus: couponStatus,
                }))
              : [],
          })),
          ItineraryPricing: {
            EquiFare: money(t.base, c),
            Tax: money(t.tax, c),
            TotalFare: money(t.total, c),
          },
          TicketingInfo: {
            IssuingIATA: lcc ? '' : '96637281',
            FareCalculation: lcc
              ? ''
              : `${items[0]?.DepartureAirportLocationCode} ${b.itinerary.carrier.code} ${items.at(-1)?.ArrivalAirportLocationCode} ${money(t.base, c).Amount}${c} END`,
            Endorsements: b.itinerary.refundable ? 'REFUNDABLE WITH PENALTY' : 'NON-REFUNDABLE',
            FormOfPayment: 'CASH/AGENCY DEPOSIT',
          },
        },
        BookingNotes: b.notes.map((n) => ({ Note: n.text, CreatedOn: new Date(n.at).toISOString() })),
      },
    },
  };
}

export function bookingRoutes(ctx: Ctx) {
  const find = (id: unknown) => (typeof id === 'string' ? ctx.state.bookings.get(id) : undefined);
  return [
    route(ctx, 'post', '/api/v1/Book/Flight', async ({ request, body }) => {
      const fs = decodeFsc(body.FareSourceCode);
      if (!fs) return fail('ERBUK002', 'FareSourceCode is invalid.');
      if (ctx.now() - fs.issuedAt > FSC_TTL_MS)
        return fail('ERBUK005', 'FareSourceCode has expired. Please search again.');
      const trigger = fs.key.legs[0]?.[1];
      if (trigger === 'XSO') return fail('ERBUK003', 'Seats are no longer available for the selected fare.');
      const itinerary = itineraryAt(ctx.options, fs.key, fs.index, trigger);
      if (!itinerary) return fail('ERBUK002', 'FareSourceCode is invalid.');
      const pax = travelers(body);
      if (typeof pax === 'string') return fail('ERBUK001', pax);
      const [a, c, i] = fs.key.pax;
      const count = (t: string) => pax.filter((p) => p.type === t).length;
      if (count('ADT') !== a || count('CHD') !== c || count('INF') !== i) {
        return fail('ERBUK004', 'Travelers do not match the passenger types of the FareSourceCode.');
      }
      const info = (body.TravelerInfo ?? {}) as Record<string, unknown>;
      if (!info.Email || !info.PhoneNumber)
        return fail('ERBUK001', 'TravelerInfo.Email and PhoneNumber are required.');
      const names = new Set(pax.map((p) => p.last.toUpperCase()));
      if (names.has('REJECT'))
        return fail('ERBUK042', 'Booking rejected by the airline: UNABLE TO CONFIRM SEGMENTS (UC).');
      if (names.has('SERVERERROR')) return gatewayError(500);
      if (names.has('RESET')) return HttpResponse.error();
      // The booking id and the airline PNR name one booking for good: the next number while either is taken.
      const taken = new Set([...ctx.state.bookings.values()].map((b) => b.pnr));
      let uniqueId = '';
      let pnr = '';
      for (
        let n = ctx.state.bookings.size + 1;
        !uniqueId || ctx.state.bookings.has(uniqueId) || taken.has(pnr);
        n++
      ) {
        uniqueId = `MF${String(10_000_000 + (hashString(`${ctx.options.seed ?? 42}:${n}`) % 89_999_999))}`;
        pnr = hashString(uniqueId).toString(36).toUpperCase().padStart(6, 'X').slice(0, 6);
      }
      const booking: Booking = {
        uniqueId,
        conversationId: String(body.ConversationId ?? ''),
        pnr,
        status: STATUS.placed,
        itinerary: withDrift(itinerary, fs.drift),
        travelers: pax,
        email: String(info.Email),
        phone: String(info.PhoneNumber),
        createdAt: ctx.now(),
        tktTimeLimit: ctx.now() + 24 * 3_600_000,
        ticketing: undefined,
        ticketedAt: undefined,
        tickets: [],
        notes: [],
        ptrs: [],
        ...(names.has('SCHEDULECHANGE') ? { scheduleChangeTriggered: true } : {}),
      };
      ctx.state.bookings.set(uniqueId, booking);
      // The ambiguous failures: the booking exists but the caller never hears so.
      if (names.has('PENDING')) return gatewayError(504);
      if (names.has('TIMEOUT')) {
        await sleep(120_000, request.signal);
        return gatewayError(504);
      }
      return ok({
        UniqueID: uniqueId,
        MFRef: uniqueId,
        Status: booking.status,
        BookingStatus: STATUS_TEXT[booking.status],
        TktTimeLimit: new Date(booking.tktTimeLimit).toISOString(),
        ConversationId: booking.conversationId,
      });
    }),
    route(ctx, 'post', '/api/v1/OrderTicket', ({ body }) => {
      const b = find(body.UniqueID);
      if (!b) return fail('ERTKT001', 'Booking not found.');
      progress(b, ctx.now(), false);
      if (b.status === STATUS.ticketed || b.status === STATUS.tktInProcess) {
        return fail('ERTKT002', 'Ticketing has already been requested for this booking.');
      }
      if (b.status !== STATUS.placed)
        return fail('ERTKT003', `Booking cannot be ticketed in status ${STATUS_TEXT[b.status]}.`);
      if (ctx.now() > b.tktTimeLimit) return fail('ERTKT004', 'Ticketing time limit has passed.');
      const polls = ctx.options.ticketingPolls ?? 2;
      if (polls <= 0) ticketNow(b, ctx.now());
      else {
        b.status = STATUS.tktInProcess;
        b.ticketing = { pollsLeft: polls, readyAt: ctx.now() + (ctx.options.ticketingDelayMs ?? 90_000) };
      }
      return ok({ UniqueID: b.uniqueId, Status: b.status, TktStatus: STATUS_TEXT[b.status] });
    }),
    route(ctx, 'get', '/api/v1/TripDetails/:mfref', ({ params }) => {
      const b = find(params.mfref);
      if (!b) return fail('ERTRD001', 'Booking not found.');
      progress(b, ctx.now(), true);
      settleTriggeredChange(b);
      return ok(tripDetails(b));
    }),
    route(ctx, 'post', '/api/v1/Booking/Cancel', ({ body }) => {
      const b = find(body.UniqueID);
      if (!b) return fail('ERCBK001', 'Booking not found.');
      progress(b, ctx.now(), false);
      if (b.status === STATUS.cancelled) return fail('ERCBK003', 'Booking is already cancelled.');
      if (b.status !== STATUS.placed) {
        return fail('ERCBK002', 'Ticketed bookings cannot be cancelled; raise a Void or Refund request.');
      }
      b.status = STATUS.cancelled;
      return ok({ UniqueID: b.uniqueId, Status: b.status, BookingStatus: STATUS_TEXT[b.status] });
    }),
    route(ctx, 'post', '/api/v1/BookingNotes', ({ body }) => {
      const b = find(body.UniqueID);
      if (!b) return fail('ERBNT001', 'Booking not found.');
      const notes = Array.isArray(body.Notes)
        ? body.Notes.filter((n): n is string => typeof n === 'string' && n.trim() !== '')
        : [];
      if (notes.length === 0) return fail('ERBNT003', 'Notes are required.');
      if (b.status === STATUS.cancelled)
        return fail('ERBNT002', 'Notes cannot be added to a cancelled booking.');
      for (const text of notes) b.notes.push({ text, at: ctx.now() });
      return ok({ UniqueID: b.uniqueId, NotesAdded: notes.length });
    }),
    route(ctx, 'post', '/api/v1/Search/Booking', ({ body }) => {
      const ref = body.ConversationId;
      const hits = [...ctx.state.bookings.values()].filter((b) => ref && b.conversationId === ref);
      if (hits.length === 0) return fail('ERSBK001', 'No records found.');
      return ok({
        Bookings: hits.map((b) => ({
          UniqueID: b.uniqueId,
          Status: b.status,
          BookingStatus: STATUS_TEXT[b.status],
          BookedOn: new Date(b.createdAt).toISOString(),
        })),
      });
    }),
  ];
}
