import type { CallOptions, Currency } from '../ports/errors.ts';
import { SupplierError } from '../ports/errors.ts';
import type {
  AncillaryItem,
  AncillaryPurchaseProduct,
  BagOption,
  BagSelection,
  CreateFlightOrderInput,
  FareRule,
  FlightSearchQuery,
  FlightSupplier,
  FlightSupplierCapabilities,
  IssuedEmd,
  OrderServices,
  PricedFlightOffer,
  PurchasedAncillary,
  SeatMap,
  SeatRequest,
  SeatRequestResult,
  ServicingRequest,
  SupplierFlightOffer,
  SupplierFlightOrder,
  TicketAction,
  TicketActionResult,
  TicketDocument,
  TicketIssueResult,
  TicketStatus,
} from '../ports/flight.ts';
import { AmadeusClient, type AmadeusClientConfig, toSupplierError } from './client.ts';
import { orderItinerary } from './itinerary.ts';
import {
  applyBags,
  arr,
  bagChargeMinor,
  bagOptionsFrom,
  CLIENT_REF_PREFIX,
  chosenBags,
  fareRulesFrom,
  fromMinor,
  obj,
  offerFromAmadeus,
  orderFromAmadeus,
  s,
  searchBody,
  segmentIdMap,
  ticketFromAmadeus,
  toMinor,
  travelersFrom,
  type Wire,
} from './mapper.ts';

/**
 * FlightSupplier over Amadeus for Developers. Published operations go through the official `amadeus`
 * client's namespaces; our emulator's documented extensions (ticketing, servicing, ancillaries, seats on
 * an order) through its generic `client.get/post`.
 */

const OFFER_TTL_MS = 30 * 60_000;
const ORDERS = '/v1/booking/flight-orders';

export interface AmadeusAdapterConfig extends AmadeusClientConfig {
  /** Clock for offer expiry (tests). */
  now?: () => number;
}

export class AmadeusFlightAdapter implements FlightSupplier {
  readonly name = 'amadeus' as const;
  readonly capabilities: FlightSupplierCapabilities = {
    upsell: true,
    asyncTicketing: false,
    ticketStatus: true,
    servicing: false,
    notes: true,
    holdOrders: true,
    seats: true,
    ancillaries: true,
    foid: true,
    commission: true,
  };
  readonly #client: AmadeusClient;
  readonly #now: () => number;

  constructor(config: AmadeusAdapterConfig) {
    this.#client = new AmadeusClient(config, 'amadeus');
    this.#now = config.now ?? Date.now;
  }

  async #run<T = Wire>(
    fn: Parameters<AmadeusClient['call']>[0],
    opts?: CallOptions,
    create = false,
  ): Promise<T> {
    try {
      return (await this.#client.call<T>(fn, opts)).body;
    } catch (e) {
      throw toSupplierError('amadeus', e, create);
    }
  }

  #expiry(): string {
    return new Date(this.#now() + OFFER_TTL_MS).toISOString();
  }

  async search(query: FlightSearchQuery, opts?: CallOptions): Promise<SupplierFlightOffer[]> {
    const body = await this.#run(
      (sdk) => sdk.shopping.flightOffersSearch.post(JSON.stringify(searchBody(query))),
      opts,
    );
    const offers = arr(obj(body).data).map((o) => offerFromAmadeus(o, this.#expiry()));
    return (query.refundableOnly ? offers.filter((o) => o.refundable) : offers).slice(0, query.maxResults);
  }

  async #price(ref: Wire, include: string[], opts?: CallOptions): Promise<{ offer: Wire; included: Wire }> {
    const body = JSON.stringify({ data: { type: 'flight-offers-pricing', flightOffers: [ref] } });
    const extra: Record<string, string> = include.length ? { include: include.join(',') } : {};
    const res = obj(await this.#run((sdk) => sdk.shopping.flightOffers.pricing.post(body, extra), opts));
    return { offer: obj(arr(obj(res.data).flightOffers)[0]), included: obj(res.included) };
  }

  async price(
    offer: SupplierFlightOffer,
    include: { bags?: boolean; fareRules?: boolean },
    opts?: CallOptions,
  ): Promise<PricedFlightOffer> {
    const inc = [...(include.bags ? ['bags'] : []), ...(include.fareRules ? ['detailed-fare-rules'] : [])];
    const { offer: raw, included } = await this.#price(obj(offer.supplier_ref), inc, opts);
    const priced = offerFromAmadeus(raw, this.#expiry());
    const out: PricedFlightOffer = {
      offer: priced,
      price_changed: priced.price.total_minor !== offer.price.total_minor,
      previous_total_minor: offer.price.total_minor,
    };
    if (include.fareRules) out.fare_rules = fareRulesFrom(included, raw);
    if (include.bags) out.bag_options = bagOptionsFrom(included, raw);
    return out;
  }

  async upsell(offer: SupplierFlightOffer, opts?: CallOptions): Promise<SupplierFlightOffer[]> {
    const body = JSON.stringify({
      data: { type: 'flight-offers-upselling', flightOffers: [offer.supplier_ref] },
    });
    const res = obj(await this.#run((sdk) => sdk.shopping.flightOffers.upselling.post(body), opts));
    return arr(res.data).map((o) => offerFromAmadeus(o, this.#expiry()));
  }

  /**
   * The offer with `selections` on it (see `applyBags`), and the bag catalogue when a selection names an
   * option from it.
   */
  async #withBags(
    ref: Wire,
    selections: BagSelection[],
    opts?: CallOptions,
  ): Promise<{ ref: Wire; options?: BagOption[] }> {
    if (!selections.some((b) => b.bag_option_id !== undefined))
      return { ref: applyBags(ref, selections, {}) };
    const catalogue = await this.#price(ref, ['bags'], opts);
    return {
      ref: applyBags(ref, selections, obj(catalogue.included.bags)),
      options: bagOptionsFrom(catalogue.included, catalogue.offer),
    };
  }

  /** Chargeable bags ride on the offer (fareDetailsBySegment.additionalServices) and are priced with it. */
  async repriceWithBags(
    offer: SupplierFlightOffer,
    selections: BagSelection[],
    opts?: CallOptions,
  ): Promise<PricedFlightOffer> {
    const given = obj(offer.supplier_ref);
    const { ref, options } = await this.#withBags(given, selections, opts);
    const { offer: raw } = await this.#price(ref, [], opts);
    const priced = offerFromAmadeus(raw, this.#expiry());
    // Whether the fare moved: the bags, old and new, are not part of that question.
    const fare = (total: number, w: Wire) => total - bagChargeMinor(w);
    return {
      offer: priced,
      price_changed: fare(priced.price.total_minor, raw) !== fare(offer.price.total_minor, given),
      previous_total_minor: offer.price.total_minor,
      ...(options ? { bag_options: options } : {}),
    };
  }

  async fareRules(offer: SupplierFlightOffer, opts?: CallOptions): Promise<FareRule[]> {
    const { offer: raw, included } = await this.#price(
      obj(offer.supplier_ref),
      ['detailed-fare-rules'],
      opts,
    );
    return fareRulesFrom(included, raw);
  }

  async createOrder(input: CreateFlightOrderInput, opts?: CallOptions): Promise<SupplierFlightOrder> {
    const general = [
      { subType: 'GENERAL_MISCELLANEOUS', text: `${CLIENT_REF_PREFIX} ${input.client_reference}` },
      ...(input.remarks ?? []).map((text) => ({
        subType: 'GENERAL_MISCELLANEOUS',
        text: text.toUpperCase(),
      })),
    ];
    const body = {
      data: {
        type: 'flight-order',
        flightOffers: [await this.#orderOffer(input, opts)],
        travelers: travelersFrom(input.passengers, input.contact),
        remarks: { general },
        ticketingAgreement: input.hold ? { option: 'DELAY_TO_CANCEL', delay: '6D' } : { option: 'CONFIRM' },
        contacts: [
          {
            purpose: 'STANDARD',
            emailAddress: input.contact.email,
            phones: [
              {
                deviceType: 'MOBILE',
                countryCallingCode: '44',
                number: input.contact.phone.replace(/\D/g, '') || '0',
              },
            ],
          },
        ],
      },
    };
    const res = obj(
      await this.#run((sdk) => sdk.booking.flightOrders.post(JSON.stringify(body)), opts, true),
    );
    return orderFromAmadeus(obj(res.data), false);
  }

  /**
   * The flight offer to book. The GDS books what the offer carries and re-checks its price, so selected
   * bags must be on the offer and priced with it: an offer re-priced with exactly these bags goes as it is,
   * otherwise the bags are put on and the offer priced again. A fare that moved meanwhile is price_changed,
   * as the order itself would answer.
   */
  async #orderOffer(input: CreateFlightOrderInput, opts?: CallOptions): Promise<Wire> {
    const ref = obj(input.offer.supplier_ref);
    const bags = input.bags ?? [];
    if (bags.length === 0) return ref;
    try {
      return await this.#pricedWithBags(input.offer, ref, bags, opts);
    } catch (e) {
      // Nothing is booked before the order call: a pricing call that timed out did no harm.
      if (e instanceof SupplierError && e.kind === 'timeout')
        throw new SupplierError('amadeus', 'unavailable', e.message, { cause: e });
      throw e;
    }
  }

  async #pricedWithBags(
    offer: SupplierFlightOffer,
    ref: Wire,
    bags: BagSelection[],
    opts?: CallOptions,
  ): Promise<Wire> {
    const { ref: bagged } = await this.#withBags(ref, bags, opts);
    if (chosenBags(bagged) === chosenBags(ref)) return ref;
    const { offer: priced } = await this.#price(bagged, [], opts);
    const price = obj(priced.price);
    const total = toMinor(price.grandTotal ?? price.total, s(price.currency));
    if (total - bagChargeMinor(priced) !== offer.price.total_minor - bagChargeMinor(ref)) {
      throw new SupplierError('amadeus', 'price_changed', 'The fare changed when the bags were priced', {
        details: { old_total_minor: offer.price.total_minor, new_total_minor: total },
      });
    }
    return priced;
  }

  async getOrder(orderRef: string, opts?: CallOptions): Promise<SupplierFlightOrder> {
    const res = obj(await this.#run((sdk) => sdk.booking.flightOrder(orderRef).get(), opts));
    const data = obj(res.data);
    return orderFromAmadeus(data, arr(data.tickets).length > 0);
  }

  async orderItinerary(orderRef: string, opts?: CallOptions) {
    return orderItinerary(await this.getOrder(orderRef, opts));
  }

  async findOrderByClientReference(
    clientReference: string,
    opts?: CallOptions,
  ): Promise<SupplierFlightOrder | null> {
    const res = obj(await this.#run((sdk) => sdk.client.get(ORDERS, { clientReference }), opts));
    const first = arr(res.data)[0];
    return first ? orderFromAmadeus(first, arr(first.tickets).length > 0) : null;
  }

  async cancelOrder(orderRef: string, opts?: CallOptions) {
    await this.#run((sdk) => sdk.booking.flightOrder(orderRef).delete(), opts);
    return { cancelled: true };
  }

  async addNotes(orderRef: string, notes: string[], opts?: CallOptions) {
    await this.#run(
      (sdk) =>
        sdk.client.post(`${ORDERS}/${orderRef}/remarks`, {
          data: { general: notes.map((text) => ({ subType: 'GENERAL_MISCELLANEOUS', text })) },
        }),
      opts,
    );
    return { success: true };
  }

  async updateFoid(
    orderRef: string,
    foid: Parameters<FlightSupplier['updateFoid']>[1],
    opts?: CallOptions,
  ): Promise<void> {
    const data = {
      number: foid.number,
      identificationType: foid.identification_type,
      carrierCode: foid.carrier_code,
      travelerIds: foid.traveler_ids,
      flightOfferIds: foid.flight_offer_ids,
    };
    await this.#run((sdk) => sdk.client.post(`${ORDERS}/${orderRef}/foid`, { data }), opts);
  }

  async updateCommission(
    orderRef: string,
    c: Parameters<FlightSupplier['updateCommission']>[1],
    opts?: CallOptions,
  ): Promise<void> {
    const data = {
      amount: c.amount,
      percentage: c.percentage,
      commissionType: c.commission_type,
      vat: c.vat,
      travelerIds: c.traveler_ids,
      segmentIds: c.segment_ids,
    };
    await this.#run((sdk) => sdk.client.post(`${ORDERS}/${orderRef}/commissions`, { data }), opts);
  }

  async issueTicket(
    orderRef: string,
    payment: { currency: Currency; amount_minor: number },
    opts?: CallOptions,
  ): Promise<TicketIssueResult> {
    const data = {
      type: 'flight-order-issuance',
      formOfPayments: [{ other: { method: 'CASH', flightOfferIds: ['1'] } }],
      payment: { amount: fromMinor(payment.amount_minor, payment.currency), currencyCode: payment.currency },
    };
    await this.#run((sdk) => sdk.client.post(`${ORDERS}/${orderRef}/issuance`, { data }), opts, true);
    const tickets = await this.ticketDocuments(orderRef, opts);
    return { issued: true, raw_status: 'ISSUED', tickets };
  }

  async #tickets(orderRef: string, opts?: CallOptions): Promise<Wire> {
    return obj(await this.#run((sdk) => sdk.client.get(`${ORDERS}/${orderRef}/tickets`), opts));
  }

  async ticketStatus(orderRef: string, opts?: CallOptions): Promise<TicketStatus> {
    const raw = s(obj((await this.#tickets(orderRef, opts)).meta).ticketingStatus);
    return {
      issued: raw === 'ISSUED' || raw === 'EXCHANGED',
      raw_status: raw,
      raw_status_text: raw.replaceAll('_', ' ').toLowerCase(),
    };
  }

  async ticketDocuments(orderRef: string, opts?: CallOptions): Promise<TicketDocument[]> {
    const order = obj((await this.getOrder(orderRef, opts)).raw);
    const ids = segmentIdMap(obj(arr(order.flightOffers)[0]));
    return arr((await this.#tickets(orderRef, opts)).data).map((t) => ticketFromAmadeus(t, ids));
  }

  async ticketAction(
    orderRef: string,
    action: TicketAction,
    confirm: boolean,
    note: string | undefined,
    opts?: CallOptions,
  ): Promise<TicketActionResult> {
    const data = {
      type: 'ticket-action',
      action: action.toUpperCase(),
      mode: confirm ? 'CONFIRM' : 'QUOTE',
      remark: note,
    };
    const res = obj(
      obj(
        await this.#run(
          (sdk) => sdk.client.post(`${ORDERS}/${orderRef}/ticket-actions`, { data }),
          opts,
          confirm,
        ),
      ).data,
    );
    const money = (m: unknown) => {
      const w = obj(m);
      const currency = s(w.currencyCode) as Currency;
      return w.amount === undefined ? undefined : { currency, amount_minor: toMinor(w.amount, currency) };
    };
    const out: TicketActionResult = {
      action,
      confirmed: res.status === 'CONFIRMED',
      permitted: res.permitted === true,
      determination: s(res.determination),
      message: s(res.reason) || (res.permitted ? `${action} ${confirm ? 'confirmed' : 'quoted'}` : ''),
    };
    const refund = money(res.refundAmount);
    const fee = money(res.penaltyAmount);
    if (refund) out.refund = refund;
    if (fee) out.fee = fee;
    if (res.couponStatus) out.coupon_status = s(res.couponStatus) as TicketActionResult['coupon_status'];
    return out;
  }

  async listServicing(): Promise<ServicingRequest[]> {
    throw new SupplierError(
      'amadeus',
      'unsupported',
      'Amadeus acts on tickets directly; it raises no servicing requests',
    );
  }

  async #segmentMaps(
    orderRef: string,
    opts?: CallOptions,
  ): Promise<{ toOurs: Map<string, string>; toAmadeus: Map<string, string> }> {
    const order = obj((await this.getOrder(orderRef, opts)).raw);
    const toOurs = segmentIdMap(obj(arr(order.flightOffers)[0]));
    return { toOurs, toAmadeus: new Map([...toOurs].map(([a, o]) => [o, a])) };
  }

  async seatMap(orderRef: string, opts?: CallOptions): Promise<SeatMap[]> {
    const { toOurs } = await this.#segmentMaps(orderRef, opts);
    const res = obj(await this.#run((sdk) => sdk.shopping.seatmaps.get({ flightOrderId: orderRef }), opts));
    const cabinOf: Record<string, SeatMap['cabin']> = {
      ECONOMY: 'Economy',
      PREMIUM_ECONOMY: 'Premium',
      BUSINESS: 'Business',
      FIRST: 'First',
    };
    return arr(res.data).map((m) => {
      const rows = new Map<number, SeatMap['rows'][number]>();
      let cabin: SeatMap['cabin'] = 'Economy';
      for (const deck of arr(m.decks))
        for (const seat of arr(deck.seats)) {
          cabin = cabinOf[s(seat.cabin)] ?? cabin;
          const number = s(seat.number);
          const row = Number.parseInt(number, 10);
          const tp = obj(arr(seat.travelerPricing)[0]);
          const price = obj(tp.price);
          const currency = s(price.currency) as Currency;
          const amount = toMinor(price.total, currency);
          const entry = rows.get(row) ?? { row, seats: [] };
          entry.seats.push({
            seat_number: number,
            available: tp.seatAvailabilityStatus === 'AVAILABLE',
            chargeable: amount > 0,
            ...(amount > 0 ? { price: { currency, amount_minor: amount } } : {}),
            characteristics: arr(seat.characteristicsCodes).map(s),
          });
          rows.set(row, entry);
        }
      return { segment_id: toOurs.get(s(m.segmentId)) ?? s(m.segmentId), cabin, rows: [...rows.values()] };
    });
  }

  async requestSeats(
    orderRef: string,
    seats: SeatRequest[],
    opts?: CallOptions,
  ): Promise<SeatRequestResult[]> {
    const { toOurs, toAmadeus } = await this.#segmentMaps(orderRef, opts);
    const data = seats.map((x) => ({
      segmentId: toAmadeus.get(x.segment_id) ?? x.segment_id,
      seatNumber: x.seat_number,
      travelerId: x.passenger_id,
    }));
    const res = obj(await this.#run((sdk) => sdk.client.post(`${ORDERS}/${orderRef}/seats`, { data }), opts));
    return arr(res.data).map((r) => this.#seatResult(r, toOurs));
  }

  #seatResult(r: Wire, toOurs: Map<string, string>): SeatRequestResult {
    const status = s(r.status);
    const price = obj(r.price);
    const currency = s(price.currencyCode) as Currency;
    const out: SeatRequestResult = {
      segment_id: toOurs.get(s(r.segmentId)) ?? s(r.segmentId),
      seat_number: s(r.seatNumber),
      passenger_id: s(r.travelerId),
      accepted: status !== 'REFUSED',
      status: status === 'REFUSED' ? 'refused' : status === 'PENDING' ? 'pending' : 'confirmed',
    };
    if (r.reason) out.reason = s(r.reason);
    if (price.amount !== undefined) out.price = { currency, amount_minor: toMinor(price.amount, currency) };
    return out;
  }

  async issueSeats(orderRef: string, issueEmdDocuments: boolean, opts?: CallOptions) {
    const { toOurs } = await this.#segmentMaps(orderRef, opts);
    const res = obj(
      obj(
        await this.#run(
          (sdk) =>
            sdk.client.post(`${ORDERS}/${orderRef}/seats/issuance`, {
              data: { issueEmd: issueEmdDocuments },
            }),
          opts,
          true,
        ),
      ).data,
    );
    return {
      priced: arr(res.seats).map((r) => this.#seatResult(r, toOurs)),
      emds: arr(res.emds).map((e) => ({ tsm_reference: s(e.tsmReference), emd_number: s(e.documentNumber) })),
    };
  }

  async addSsr(
    orderRef: string,
    ssr: { code: string; free_text: string; segment_id?: string; passenger_id?: string },
    opts?: CallOptions,
  ) {
    const data = {
      code: ssr.code,
      text: ssr.free_text,
      segmentId: ssr.segment_id,
      travelerId: ssr.passenger_id,
    };
    const res = obj(
      obj(await this.#run((sdk) => sdk.client.post(`${ORDERS}/${orderRef}/ssrs`, { data }), opts)).data,
    );
    return { ssr_id: s(res.id), status: s(res.status) };
  }

  async ancillaryCatalogue(
    orderRef: string,
    serviceGroup: '' | 'BG' | 'ST' | 'ML',
    opts?: CallOptions,
  ): Promise<AncillaryItem[]> {
    const { toOurs } = await this.#segmentMaps(orderRef, opts);
    const res = obj(
      await this.#run(
        (sdk) => sdk.client.get(`${ORDERS}/${orderRef}/services`, serviceGroup ? { serviceGroup } : {}),
        opts,
      ),
    );
    return arr(res.data).map((x) => {
      const price = obj(x.price);
      const currency = s(price.currencyCode) as Currency;
      return {
        code: s(x.code),
        rfic: s(x.rfic),
        rfisc: s(x.rfisc),
        description: s(x.description),
        service_group: s(x.serviceGroup) as AncillaryItem['service_group'],
        booking_method: s(x.bookingMethod),
        provider: s(x.provider),
        segment_ids: arr(x.segmentIds).map((id) => toOurs.get(s(id)) ?? s(id)),
        price: { currency, amount_minor: toMinor(price.amount, currency) },
      };
    });
  }

  async purchaseAncillaries(
    orderRef: string,
    products: AncillaryPurchaseProduct[],
    opts?: CallOptions,
  ): Promise<PurchasedAncillary[]> {
    const { toOurs, toAmadeus } = await this.#segmentMaps(orderRef, opts);
    const data = products.map((p) => ({
      travelerIds: p.customer_ref_ids,
      code: p.code,
      rfic: p.rfic,
      rfisc: p.rfisc,
      bookingMethod: p.booking_method,
      provider: p.provider,
      segmentIds: p.segment_ref_ids
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => toAmadeus.get(id) ?? id),
    }));
    const res = obj(
      await this.#run((sdk) => sdk.client.post(`${ORDERS}/${orderRef}/services`, { data }), opts, true),
    );
    return arr(res.data).map((x) => {
      const price = obj(x.price);
      const currency = s(price.currencyCode) as Currency;
      return {
        tsm_reference: s(x.tsmReference),
        code: s(x.code),
        passenger_ids: arr(x.travelerIds).map(s),
        segment_ids: arr(x.segmentIds).map((id) => toOurs.get(s(id)) ?? s(id)),
        price: { currency, amount_minor: toMinor(price.amount, currency) },
      };
    });
  }

  async issueEmds(orderRef: string, tsmReferences: string[], opts?: CallOptions): Promise<IssuedEmd[]> {
    const res = obj(
      await this.#run(
        (sdk) => sdk.client.post(`${ORDERS}/${orderRef}/emds`, { data: { tsmReferences } }),
        opts,
        true,
      ),
    );
    return arr(res.data).map((e) => ({ tsm_reference: s(e.tsmReference), emd_number: s(e.documentNumber) }));
  }

  async orderServices(orderRef: string, opts?: CallOptions): Promise<OrderServices> {
    const { toOurs } = await this.#segmentMaps(orderRef, opts);
    const res = obj(
      obj(await this.#run((sdk) => sdk.client.get(`${ORDERS}/${orderRef}/service-elements`), opts)).data,
    );
    const status = { ACTIVE: 'active', VOIDED: 'voided', REMOVED: 'removed' } as const;
    return {
      seats: arr(res.seats).map((r) => ({
        ...this.#seatResult(r, toOurs),
        tsm_reference: r.tsmReference ? s(r.tsmReference) : null,
        emd_number: r.documentNumber ? s(r.documentNumber) : null,
      })),
      services: arr(res.services).map((x) => {
        const price = obj(x.price);
        const currency = s(price.currencyCode) as Currency;
        return {
          tsm_reference: s(x.tsmReference),
          code: s(x.code),
          passenger_ids: arr(x.travelerIds).map(s),
          segment_ids: arr(x.segmentIds).map((id) => toOurs.get(s(id)) ?? s(id)),
          price: { currency, amount_minor: toMinor(price.amount, currency) },
          status: status[s(x.status) as keyof typeof status] ?? 'active',
          emd_number: x.documentNumber ? s(x.documentNumber) : null,
        };
      }),
    };
  }

  async cancelAncillary(
    orderRef: string,
    item: { tsm_reference: string; emd_number: string | null },
    opts?: CallOptions,
  ) {
    const res = obj(
      obj(
        await this.#run(
          (sdk) => sdk.client.post(`${ORDERS}/${orderRef}/services/${item.tsm_reference}/cancellation`, {}),
          opts,
        ),
      ).data,
    );
    return { outcome: (res.outcome === 'VOIDED' ? 'voided' : 'removed') as 'voided' | 'removed' };
  }
}
