/** FlightSupplier over Mystifly OnePoint: session auth, FareSourceCode pricing, async ticketing, PTR servicing. */
import type { CallOptions, Currency } from '../ports/errors.ts';
import { SupplierError } from '../ports/errors.ts';
import type {
  CreateFlightOrderInput,
  FareRule,
  FlightSearchQuery,
  FlightSupplier,
  FlightSupplierCapabilities,
  PricedFlightOffer,
  ServicingRequest,
  SupplierFlightOffer,
  SupplierFlightOrder,
  TicketAction,
  TicketActionResult,
  TicketDocument,
  TicketIssueResult,
  TicketStatus,
} from '../ports/flight.ts';
import { pathSegment } from '../supplier-url.ts';
import { guard, MystiflyClient, type MystiflyConfig, OnePointError, toSupplierError } from './client.ts';
import { orderItinerary } from './itinerary.ts';
import {
  airTraveler,
  fareSourceCode,
  ISSUED_CODES,
  type OpPricedItinerary,
  type OpPtr,
  type OpTravelItinerary,
  searchRequest,
  toFareRules,
  toOffer,
  toOrder,
  toServicing,
  toTickets,
} from './mapper.ts';
import { ticketAction } from './ticket-actions.ts';

export interface MystiflyAdapterConfig extends MystiflyConfig {
  /** How long a FareSourceCode is honoured after search (OnePoint does not say; README). Default 25 min. */
  offerTtlMs?: number;
  now?: () => number;
}

function unsupported(op: string): never {
  throw new SupplierError('mystifly', 'unsupported', `Mystifly does not support ${op}`);
}

export class MystiflyAdapter implements FlightSupplier {
  readonly name = 'mystifly' as const;
  readonly capabilities: FlightSupplierCapabilities = {
    upsell: false,
    asyncTicketing: true,
    ticketStatus: true,
    servicing: true,
    notes: true,
    holdOrders: true,
    seats: false,
    ancillaries: false,
    foid: false,
    commission: false,
  };
  private readonly client: MystiflyClient;
  private readonly config: MystiflyAdapterConfig;

  constructor(config: MystiflyAdapterConfig) {
    this.config = config;
    this.client = new MystiflyClient(config);
  }

  private expiresAt(): string {
    return new Date((this.config.now ?? Date.now)() + (this.config.offerTtlMs ?? 25 * 60_000)).toISOString();
  }

  async search(query: FlightSearchQuery, opts?: CallOptions): Promise<SupplierFlightOffer[]> {
    try {
      const data = await this.client.call<{ PricedItineraries: OpPricedItinerary[] }>(
        'POST',
        '/api/v2/Search/Flight',
        searchRequest(query, this.client.target, crypto.randomUUID()),
        opts,
      );
      const expires = this.expiresAt();
      return data.PricedItineraries.slice(0, query.maxResults).map((pi) => toOffer(pi, expires));
    } catch (e) {
      // "No flights found" is an empty answer, not a failure.
      if (e instanceof OnePointError && e.code === 'ERSEA001') return [];
      if (e instanceof OnePointError) throw toSupplierError(e);
      throw e;
    }
  }

  async price(
    offer: SupplierFlightOffer,
    include: { bags?: boolean; fareRules?: boolean },
    opts?: CallOptions,
  ): Promise<PricedFlightOffer> {
    const data = await guard(() =>
      this.client.call<{ IsValid: boolean; PricedItineraries: OpPricedItinerary[] }>(
        'POST',
        '/api/v1/Revalidate/Flight',
        { FareSourceCode: fareSourceCode(offer), Target: this.client.target },
        opts,
      ),
    );
    const pi = data.PricedItineraries[0];
    if (!data.IsValid || !pi)
      throw new SupplierError('mystifly', 'sold_out', 'Revalidate: fare is no longer valid');
    const fresh = toOffer(pi, this.expiresAt());
    const result: PricedFlightOffer = {
      offer: fresh,
      price_changed: fresh.price.total_minor !== offer.price.total_minor,
      previous_total_minor: offer.price.total_minor,
    };
    if (include.fareRules) result.fare_rules = await this.fareRules(fresh, opts);
    // OnePoint sells no chargeable bags through this API (capabilities.ancillaries is false).
    if (include.bags) result.bag_options = [];
    return result;
  }

  async upsell(): Promise<never> {
    return unsupported('branded-fare upsell');
  }

  async repriceWithBags(
    offer: SupplierFlightOffer,
    selections: { quantity: number }[],
    opts?: CallOptions,
  ): Promise<PricedFlightOffer> {
    if (selections.length > 0) unsupported('chargeable bags');
    return this.price(offer, {}, opts);
  }

  async fareRules(offer: SupplierFlightOffer, opts?: CallOptions): Promise<FareRule[]> {
    const data = await guard(() =>
      this.client.call<{
        FareRules: { RuleDetails: { Category: string; Rules: string }[]; CityPair?: string }[];
      }>(
        'POST',
        '/api/v1/FlightFareRules',
        { FareSourceCode: fareSourceCode(offer), Target: this.client.target },
        opts,
      ),
    );
    return toFareRules(data.FareRules);
  }

  async createOrder(input: CreateFlightOrderInput, opts?: CallOptions): Promise<SupplierFlightOrder> {
    const booked = await guard(() =>
      this.client.call<{ UniqueID: string; Status: string; TktTimeLimit?: string }>(
        'POST',
        '/api/v1/Book/Flight',
        {
          FareSourceCode: fareSourceCode(input.offer),
          TravelerInfo: {
            AirTravelers: input.passengers.map(airTraveler),
            Email: input.contact.email,
            PhoneNumber: input.contact.phone,
          },
          // OnePoint echoes ConversationId on the booking: our client reference, used by reconciliation.
          ConversationId: input.client_reference,
          Target: this.client.target,
        },
        { ...opts, effect: true },
      ),
    );
    try {
      return await this.getOrder(booked.UniqueID, opts);
    } catch {
      // The booking exists; a failed read-back must not turn it into a failure.
      return {
        supplier: 'mystifly',
        order_ref: booked.UniqueID,
        pnr: '',
        status: 'on_hold',
        ticketing_deadline: booked.TktTimeLimit ?? null,
        total: { currency: input.offer.price.currency, amount_minor: input.offer.price.total_minor },
        raw: booked,
      };
    }
  }

  private async trip(orderRef: string, opts?: CallOptions): Promise<OpTravelItinerary> {
    const data = await guard(() =>
      this.client.call<{ TripDetailsResult: { TravelItinerary: OpTravelItinerary } }>(
        'GET',
        `/api/v1/TripDetails/${pathSegment('mystifly', orderRef)}`,
        undefined,
        opts,
      ),
    );
    return data.TripDetailsResult.TravelItinerary;
  }

  async getOrder(orderRef: string, opts?: CallOptions): Promise<SupplierFlightOrder> {
    return toOrder(await this.trip(orderRef, opts));
  }

  async orderItinerary(orderRef: string, opts?: CallOptions) {
    return orderItinerary(await this.trip(orderRef, opts));
  }

  async findOrderByClientReference(
    clientReference: string,
    opts?: CallOptions,
  ): Promise<SupplierFlightOrder | null> {
    let data: { Bookings: { UniqueID: string }[] };
    try {
      data = await this.client.call(
        'POST',
        '/api/v1/Search/Booking',
        { ConversationId: clientReference },
        opts,
      );
    } catch (e) {
      if (e instanceof OnePointError && e.code === 'ERSBK001') return null;
      if (e instanceof OnePointError) throw toSupplierError(e);
      throw e;
    }
    const last = data.Bookings.at(-1);
    return last ? this.getOrder(last.UniqueID, opts) : null;
  }

  async cancelOrder(orderRef: string, opts?: CallOptions): Promise<{ cancelled: boolean }> {
    try {
      await this.client.call(
        'POST',
        '/api/v1/Booking/Cancel',
        { UniqueID: orderRef, Target: this.client.target },
        {
          ...opts,
          effect: true,
        },
      );
      return { cancelled: true };
    } catch (e) {
      // Cancelling twice is the same outcome as cancelling once.
      if (e instanceof OnePointError && e.code === 'ERCBK003') return { cancelled: true };
      if (e instanceof OnePointError) throw toSupplierError(e);
      throw e;
    }
  }

  async addNotes(
    orderRef: string,
    notes: string[],
    opts?: CallOptions,
  ): Promise<{ success: boolean; reason?: string }> {
    try {
      await this.client.call('POST', '/api/v1/BookingNotes', { UniqueID: orderRef, Notes: notes }, opts);
      return { success: true };
    } catch (e) {
      if (e instanceof OnePointError && e.code === 'ERBNT001') throw toSupplierError(e);
      // Attaching notes is best-effort: a refusal is an answer (spec: 200 with success false).
      if (e instanceof OnePointError) return { success: false, reason: e.message };
      if (e instanceof SupplierError && e.kind !== 'auth_failed')
        return { success: false, reason: e.message };
      throw e;
    }
  }

  async updateFoid(): Promise<never> {
    return unsupported('FOID updates');
  }
  async updateCommission(): Promise<never> {
    return unsupported('commission updates');
  }

  async issueTicket(
    orderRef: string,
    _payment: { currency: Currency; amount_minor: number },
    opts?: CallOptions,
  ): Promise<TicketIssueResult> {
    try {
      const data = await this.client.call<{ Status: string; TktStatus: string }>(
        'POST',
        '/api/v1/OrderTicket',
        { UniqueID: orderRef, Target: this.client.target },
        { ...opts, effect: true },
      );
      if (data.Status !== '6') return { issued: false, raw_status: data.Status, tickets: [] };
    } catch (e) {
      // Already requested (a retry): report where ticketing stands instead of failing.
      if (!(e instanceof OnePointError && e.code === 'ERTKT002')) {
        if (e instanceof OnePointError) throw toSupplierError(e);
        throw e;
      }
    }
    const t = await this.trip(orderRef, opts);
    return { issued: ISSUED_CODES.has(t.Status), raw_status: t.Status, tickets: toTickets(t) };
  }

  async ticketStatus(orderRef: string, opts?: CallOptions): Promise<TicketStatus> {
    const t = await this.trip(orderRef, opts);
    return { issued: ISSUED_CODES.has(t.Status), raw_status: t.Status, raw_status_text: t.BookingStatus };
  }

  async ticketDocuments(orderRef: string, opts?: CallOptions): Promise<TicketDocument[]> {
    return toTickets(await this.trip(orderRef, opts));
  }

  private async raisePtr(
    orderRef: string,
    type: string,
    note: string | undefined,
    opts: CallOptions | undefined,
  ): Promise<OpPtr> {
    return this.client.call<OpPtr>(
      'POST',
      '/api/v1/PostTicketingRequest',
      { MFRef: orderRef, PTRType: type, Remarks: note ?? '', Target: this.client.target },
      { ...opts, effect: true },
    );
  }

  ticketAction(
    orderRef: string,
    action: TicketAction,
    confirm: boolean,
    note: string | undefined,
    opts?: CallOptions,
  ): Promise<TicketActionResult> {
    return ticketAction((...a) => this.raisePtr(...a), orderRef, action, confirm, note, opts);
  }

  async listServicing(orderRef: string, opts?: CallOptions): Promise<ServicingRequest[]> {
    try {
      const data = await this.client.call<{ PostTicketingRequests: OpPtr[] }>(
        'POST',
        '/api/v1/Search/PostTicketingRequest',
        { MFRef: orderRef, Target: this.client.target },
        opts,
      );
      return data.PostTicketingRequests.map(toServicing);
    } catch (e) {
      // Spec: 'No records found.' means no request was ever raised.
      if (e instanceof OnePointError && e.message === 'No records found.') return [];
      if (e instanceof OnePointError) throw toSupplierError(e);
      throw e;
    }
  }

  async seatMap(): Promise<never> {
    return unsupported('seat maps');
  }
  async requestSeats(): Promise<never> {
    return unsupported('seat requests');
  }
  async issueSeats(): Promise<never> {
    return unsupported('paid seats');
  }
  async addSsr(): Promise<never> {
    return unsupported('special service requests');
  }
  async ancillaryCatalogue(): Promise<never> {
    return unsupported('the ancillary catalogue');
  }
  async purchaseAncillaries(): Promise<never> {
    return unsupported('ancillary purchase');
  }
  async issueEmds(): Promise<never> {
    return unsupported('EMD issuance');
  }
  async cancelAncillary(): Promise<never> {
    return unsupported('ancillary cancellation');
  }
}
