import type { Duffel } from '@duffel/api';
import type { CreateOrder, SeatMap as DuffelSeatMap, Offer, Order } from '@duffel/api/types';
import { type CallOptions, SupplierError } from '../ports/errors.ts';
import type {
  AncillaryItem,
  CreateFlightOrderInput,
  FlightSupplier,
  FlightSupplierCapabilities,
  OrderServices,
  PricedFlightOffer,
  SupplierFlightOffer,
} from '../ports/flight.ts';
import { call, createDuffel, type DuffelClientConfig } from './client.ts';
import { acceptChange, orderItinerary } from './itinerary.ts';
import {
  asCurrency,
  mapBagOptions,
  mapFareRules,
  mapOffer,
  mapOrder,
  mapTickets,
  offerRef,
  offerRequestBody,
  orderSegmentIds,
  toAmount,
  toMinor,
} from './mapper.ts';
import { orderPassengers, ourPassengerId } from './passengers.ts';
import { seatMapFor, seatServiceFor } from './seats.ts';
import { ticketAction } from './ticket-actions.ts';

/**
 * Duffel (NDC aggregator) as a FlightSupplier, through the official client. Instant orders are ticketed
 * on creation; hold orders are ticketed by paying them (`issueTicket`). Duffel takes no services on a hold
 * order: `createOrder` refuses bags on one ('unsupported'), and the booking then holds without them and
 * adds them with `purchaseAncillaries` (POST /air/orders/{id}/services) once `issueTicket` has paid.
 * Duffel has no branded-fare upsell, notes, FOID or commission updates, and no separate ticket status:
 * those throw 'unsupported'.
 */
export class DuffelFlightAdapter implements FlightSupplier {
  readonly name = 'duffel' as const;
  readonly capabilities: FlightSupplierCapabilities = {
    upsell: false,
    asyncTicketing: false,
    ticketStatus: false,
    servicing: false,
    notes: false,
    holdOrders: true,
    seats: true,
    ancillaries: true,
    foid: false,
    commission: false,
  };
  readonly #duffel: Duffel;
  readonly #timeoutMs: number;

  constructor(config: DuffelClientConfig) {
    this.#duffel = createDuffel(config);
    this.#timeoutMs = config.timeoutMs ?? 30_000;
  }

  /** Internal: one call under the deadline; `create` marks calls that may act (unknown on failure). */
  run<T>(opts: CallOptions | undefined, fn: (d: Duffel) => Promise<T>, create = false): Promise<T> {
    return call('duffel', this.#timeoutMs, opts, () => fn(this.#duffel), create);
  }

  #unsupported(what: string): never {
    throw new SupplierError('duffel', 'unsupported', `Duffel does not support ${what}`);
  }

  async search(query: Parameters<FlightSupplier['search']>[0], opts?: CallOptions) {
    const res = await this.run(opts, (d) => d.offerRequests.create(offerRequestBody(query)));
    let offers = res.data.offers.map((o) => mapOffer(o as Offer));
    if (query.airline) offers = offers.filter((o) => o.validating_carrier === query.airline);
    if (query.refundableOnly) offers = offers.filter((o) => o.refundable);
    offers.sort((a, b) => a.price.total_minor - b.price.total_minor);
    return offers.slice(0, query.maxResults);
  }

  async #offer(offer: SupplierFlightOffer, services: boolean, opts?: CallOptions): Promise<Offer> {
    const ref = offerRef(offer);
    const res = await this.run(opts, (d) =>
      d.offers.get(ref.offer_id, { return_available_services: services }),
    );
    return res.data;
  }

  async price(
    offer: SupplierFlightOffer,
    include: { bags?: boolean; fareRules?: boolean },
    opts?: CallOptions,
  ) {
    const fresh = await this.#offer(offer, include.bags ?? false, opts);
    const mapped = mapOffer(fresh);
    const priced: PricedFlightOffer = {
      offer: mapped,
      price_changed: mapped.price.total_minor !== offer.price.total_minor,
      previous_total_minor: offer.price.total_minor,
    };
    if (include.fareRules) priced.fare_rules = mapFareRules(fresh);
    if (include.bags) priced.bag_options = mapBagOptions(fresh, offerRef(mapped));
    return priced;
  }

  async upsell(_offer: SupplierFlightOffer, _opts?: CallOptions): Promise<SupplierFlightOffer[]> {
    return this.#unsupported('branded-fare upsell');
  }

  async repriceWithBags(
    offer: SupplierFlightOffer,
    selections: Parameters<FlightSupplier['repriceWithBags']>[1],
    opts?: CallOptions,
  ) {
    const priced = await this.price(offer, { bags: true }, opts);
    const options = priced.bag_options ?? [];
    let extra = 0;
    for (const s of selections) {
      const opt = options.find((o) => o.bag_option_id === s.bag_option_id);
      if (!opt) throw new SupplierError('duffel', 'invalid_request', `Unknown bag option ${s.bag_option_id}`);
      if (s.quantity > opt.quantity_max)
        throw new SupplierError('duffel', 'invalid_request', 'Too many bags');
      extra += opt.price.amount_minor * s.quantity;
    }
    const p = priced.offer.price;
    priced.offer = {
      ...priced.offer,
      price: { ...p, base_minor: p.base_minor + extra, total_minor: p.total_minor + extra },
    };
    return priced;
  }

  async fareRules(offer: SupplierFlightOffer, opts?: CallOptions) {
    return mapFareRules(await this.#offer(offer, false, opts));
  }

  async createOrder(input: CreateFlightOrderInput, opts?: CallOptions) {
    const ref = offerRef(input.offer);
    const bags = input.bags ?? [];
    if (input.hold && bags.length > 0) {
      // Duffel: services must be omitted from hold orders ("we do not support services for hold orders").
      // Refused before any call, so the caller can hold without them and add them once paid.
      throw new SupplierError(
        'duffel',
        'unsupported',
        'Duffel hold orders take no bags; book instant or add them once paid',
      );
    }
    let servicesMinor = 0;
    const services: { id: string; quantity: number }[] = [];
    if (bags.length > 0) {
      const fresh = await this.#offer(input.offer, true, opts);
      for (const b of bags) {
        const svc = fresh.available_services.find((s) => s.id === b.bag_option_id);
        if (!svc)
          throw new SupplierError('duffel', 'invalid_request', `Unknown bag option ${b.bag_option_id}`);
        services.push({ id: svc.id, quantity: b.quantity });
        servicesMinor += toMinor(svc.total_amount, ref.currency) * b.quantity;
      }
    }
    const body = {
      type: input.hold ? 'hold' : 'instant',
      selected_offers: [ref.offer_id],
      passengers: orderPassengers(ref, input.passengers, input.contact),
      services,
      metadata: { client_reference: input.client_reference, offer_id: ref.offer_id },
      ...(input.hold
        ? {}
        : {
            payments: [
              {
                type: 'balance',
                currency: ref.currency,
                amount: toAmount(toMinor(ref.total_amount, ref.currency) + servicesMinor, ref.currency),
              },
            ],
          }),
    } as unknown as CreateOrder;
    const res = await this.run(opts, (d) => d.orders.create(body), true);
    return mapOrder(res.data);
  }

  async order(orderRef: string, opts?: CallOptions): Promise<Order> {
    return (await this.run(opts, (d) => d.orders.get(orderRef))).data;
  }

  async getOrder(orderRef: string, opts?: CallOptions) {
    return mapOrder(await this.order(orderRef, opts));
  }

  async orderItinerary(orderRef: string, opts?: CallOptions) {
    return orderItinerary(await this.order(orderRef, opts));
  }

  async acceptScheduleChange(orderRef: string, changeId: string, opts?: CallOptions) {
    await acceptChange(this, orderRef, changeId, opts);
  }

  async findOrderByClientReference(clientReference: string, opts?: CallOptions) {
    // Duffel keeps our reference in order metadata; the emulator filters on it (see its README).
    const params = { 'metadata[client_reference]': clientReference } as Record<string, string>;
    const res = await this.run(opts, (d) => d.orders.list(params));
    const hit = res.data.find((o) => o.metadata?.client_reference === clientReference);
    return hit ? mapOrder(hit) : null;
  }

  async cancelOrder(orderRef: string, opts?: CallOptions) {
    const order = await this.order(orderRef, opts);
    const currency = asCurrency(order.total_currency);
    // Already cancelled (a repeated cancel whose first answer was lost): its confirmed cancellation is the
    // supplier's record of it, refund included; nothing is cancelled twice.
    const done = order.cancelled_at
      ? await this.#confirmedCancellation(orderRef, opts)
      : await this.#cancelNow(orderRef, opts);
    if (!done) return { cancelled: true };
    const refund = toMinor(done.data.refund_amount, currency);
    const paid = !order.payment_status.awaiting_payment;
    return {
      cancelled: true,
      refund: { currency, amount_minor: refund },
      fee: { currency, amount_minor: paid ? toMinor(order.total_amount, currency) - refund : 0 },
    };
  }

  async #cancelNow(orderRef: string, opts?: CallOptions) {
    const quote = await this.run(opts, (d) => d.orderCancellations.create({ order_id: orderRef }));
    return this.run(opts, (d) => d.orderCancellations.confirm(quote.data.id), true);
  }

  async #confirmedCancellation(orderRef: string, opts?: CallOptions) {
    const list = await this.run(opts, (d) => d.orderCancellations.list({ order_id: orderRef }));
    const hit = list.data.find((c) => c.confirmed_at);
    return hit ? { data: hit } : null;
  }

  async addNotes(
    _orderRef: string,
    _notes: string[],
    _opts?: CallOptions,
  ): Promise<{ success: boolean; reason?: string }> {
    return this.#unsupported('booking notes');
  }
  async updateFoid(_orderRef: string, _foid: unknown, _opts?: CallOptions): Promise<void> {
    this.#unsupported('FOID updates');
  }
  async updateCommission(_orderRef: string, _commission: unknown, _opts?: CallOptions): Promise<void> {
    this.#unsupported('commission updates');
  }

  async issueTicket(
    orderRef: string,
    payment: { currency: string; amount_minor: number },
    opts?: CallOptions,
  ) {
    let order = await this.order(orderRef, opts);
    if (order.cancelled_at) throw new SupplierError('duffel', 'invalid_request', 'Order is cancelled');
    if (order.payment_status.awaiting_payment) {
      const due = toMinor(order.total_amount, order.total_currency);
      if (payment.currency !== order.total_currency || payment.amount_minor !== due) {
        throw new SupplierError('duffel', 'price_changed', 'The order total differs from the payment', {
          details: { old_total_minor: payment.amount_minor, new_total_minor: due },
        });
      }
      const body = {
        order_id: orderRef,
        payment: { type: 'balance' as const, amount: order.total_amount, currency: order.total_currency },
      };
      await this.run(opts, (d) => d.payments.create(body), true);
      order = await this.order(orderRef, opts);
    }
    return { issued: true, raw_status: 'paid', tickets: mapTickets(order) };
  }

  async ticketStatus(_orderRef: string, _opts?: CallOptions): Promise<never> {
    return this.#unsupported('ticket status (tickets are issued instantly)');
  }

  async ticketDocuments(orderRef: string, opts?: CallOptions) {
    return mapTickets(await this.order(orderRef, opts));
  }

  ticketAction(
    orderRef: string,
    action: 'void' | 'refund' | 'reissue',
    confirm: boolean,
    note: string | undefined,
    opts?: CallOptions,
  ) {
    return ticketAction(this, orderRef, action, confirm, note, opts);
  }

  async listServicing(_orderRef: string, _opts?: CallOptions): Promise<never> {
    return this.#unsupported('servicing requests (changes are direct)');
  }

  async #seatMaps(order: Order, opts?: CallOptions): Promise<DuffelSeatMap[]> {
    const offerId = order.metadata?.offer_id;
    if (!offerId) return [];
    return (await this.run(opts, (d) => d.seatMaps.get({ offer_id: offerId }))).data;
  }

  async seatMap(orderRef: string, opts?: CallOptions) {
    const order = await this.order(orderRef, opts);
    const segIds = orderSegmentIds(order);
    return (await this.#seatMaps(order, opts)).map((m) => seatMapFor(m, segIds));
  }

  async requestSeats(
    orderRef: string,
    seats: Parameters<FlightSupplier['requestSeats']>[1],
    opts?: CallOptions,
  ) {
    const order = await this.order(orderRef, opts);
    const maps = await this.#seatMaps(order, opts);
    const segIds = orderSegmentIds(order);
    const results = [];
    // One services call per seat so one refused seat does not sink the batch.
    for (const seat of seats) {
      const svc = seatServiceFor(maps, segIds, order, seat);
      if (!svc) {
        results.push({ ...seat, accepted: false, status: 'refused' as const, reason: 'seat_unavailable' });
        continue;
      }
      const currency = asCurrency(svc.total_currency);
      const price = { currency, amount_minor: toMinor(svc.total_amount, currency) };
      try {
        const body = {
          add_services: [{ id: svc.id, quantity: 1 }],
          payment: { type: 'balance' as const, amount: svc.total_amount, currency: svc.total_currency },
        };
        await this.run(opts, (d) => d.orders.addServices(orderRef, body), true);
        results.push({ ...seat, accepted: true, status: 'confirmed' as const, price });
      } catch (err) {
        if (!(err instanceof SupplierError) || !['rejected', 'invalid_request'].includes(err.kind)) throw err;
        results.push({
          ...seat,
          accepted: false,
          status: 'refused' as const,
          reason: err.supplierCode ?? err.kind,
          price,
        });
      }
    }
    return results;
  }

  async issueSeats(orderRef: string, _issueEmdDocuments: boolean, opts?: CallOptions) {
    // Seats are paid when added, so they are already issued; report them and their EMDs.
    const order = await this.order(orderRef, opts);
    const segIds = orderSegmentIds(order);
    const currency = asCurrency(order.total_currency);
    const seatSvcs = order.services.filter((s) => s.type === 'seat');
    const priced = seatSvcs.flatMap((s) =>
      s.passenger_ids.map((pid) => ({
        segment_id: `s${segIds.indexOf(s.segment_ids[0] ?? '') + 1}`,
        seat_number: (s.metadata as { designator?: string } | undefined)?.designator ?? '',
        passenger_id: ourPassengerId(order, pid),
        accepted: true,
        status: 'confirmed' as const,
        price: { currency, amount_minor: toMinor(s.total_amount, currency) },
      })),
    );
    return {
      priced,
      emds: this.#emds(
        order,
        seatSvcs.map((s) => s.id),
      ),
    };
  }

  #emds(order: Order, serviceIds: string[]) {
    return (order.documents ?? [])
      .filter((d) => d.type !== 'electronic_ticket')
      .map((d) => d as typeof d & { service_id?: string })
      .filter((d) => d.service_id && serviceIds.includes(d.service_id))
      .map((d) => ({ tsm_reference: d.service_id as string, emd_number: d.unique_identifier }));
  }

  async addSsr(_orderRef: string, _ssr: unknown, _opts?: CallOptions): Promise<never> {
    return this.#unsupported('SSRs');
  }

  async ancillaryCatalogue(orderRef: string, serviceGroup: '' | 'BG' | 'ST' | 'ML', opts?: CallOptions) {
    if (serviceGroup === 'ST' || serviceGroup === 'ML') return [];
    const order = await this.order(orderRef, opts);
    const segIds = orderSegmentIds(order);
    const res = await this.run(opts, (d) => d.orders.getAvailableServices(orderRef));
    return res.data.map((s): AncillaryItem => {
      const currency = asCurrency(s.total_currency);
      return {
        code: s.id,
        rfic: 'C',
        rfisc: '0CC',
        description: `Checked bag${s.metadata.maximum_weight_kg ? ` up to ${s.metadata.maximum_weight_kg} kg` : ''}`,
        service_group: 'BG',
        booking_method: 'duffel_service',
        provider: order.owner.iata_code ?? '',
        segment_ids: s.segment_ids.map((id) => `s${segIds.indexOf(id) + 1}`),
        price: { currency, amount_minor: toMinor(s.total_amount, currency) },
      };
    });
  }

  async purchaseAncillaries(
    orderRef: string,
    products: Parameters<FlightSupplier['purchaseAncillaries']>[1],
    opts?: CallOptions,
  ) {
    const available = (await this.run(opts, (d) => d.orders.getAvailableServices(orderRef))).data;
    const before = new Set((await this.order(orderRef, opts)).services.map((s) => s.id));
    let totalMinor = 0;
    let currency = '';
    // The same service asked for more than once is one service of that quantity (two bags of a kind).
    const add: { id: string; quantity: number }[] = [];
    for (const p of products) {
      const svc = available.find((s) => s.id === p.code);
      if (!svc) throw new SupplierError('duffel', 'invalid_request', `Unknown service ${p.code}`);
      currency = svc.total_currency;
      totalMinor += toMinor(svc.total_amount, currency);
      const same = add.find((x) => x.id === svc.id);
      if (same) same.quantity += 1;
      else add.push({ id: svc.id, quantity: 1 });
    }
    const body = {
      add_services: add,
      payment: { type: 'balance' as const, amount: toAmount(totalMinor, currency), currency },
    };
    const order = (await this.run(opts, (d) => d.orders.addServices(orderRef, body), true)).data;
    const segIds = orderSegmentIds(order);
    return order.services
      .filter((s) => !before.has(s.id))
      .map((s, i) => {
        const cur = asCurrency(s.total_currency);
        return {
          tsm_reference: s.id,
          code: add[i]?.id ?? '',
          passenger_ids: s.passenger_ids.map((pid) => ourPassengerId(order, pid)),
          segment_ids: s.segment_ids.map((id) => `s${segIds.indexOf(id) + 1}`),
          price: { currency: cur, amount_minor: toMinor(s.total_amount, cur) },
        };
      });
  }

  async issueEmds(orderRef: string, tsmReferences: string[], opts?: CallOptions) {
    return this.#emds(await this.order(orderRef, opts), tsmReferences);
  }

  async orderServices(orderRef: string, opts?: CallOptions): Promise<OrderServices> {
    const order = await this.order(orderRef, opts);
    const segIds = orderSegmentIds(order);
    const emds = new Map(
      this.#emds(
        order,
        order.services.map((s) => s.id),
      ).map((e) => [e.tsm_reference, e.emd_number]),
    );
    const seats = (await this.issueSeats(orderRef, false, opts)).priced;
    const seatIds = order.services.filter((s) => s.type === 'seat').map((s) => s.id);
    return {
      // Duffel documents seats per service; a seat service's EMD is that service's document.
      seats: seats.map((x, i) => {
        const id = seatIds[i] ?? '';
        const emd = emds.get(id) ?? null;
        return { ...x, tsm_reference: emd ? id : null, emd_number: emd };
      }),
      services: order.services
        .filter((s) => s.type !== 'seat')
        .map((s) => {
          const cur = asCurrency(s.total_currency);
          return {
            tsm_reference: s.id,
            code: s.id,
            passenger_ids: s.passenger_ids.map((pid) => ourPassengerId(order, pid)),
            segment_ids: s.segment_ids.map((id) => `s${segIds.indexOf(id) + 1}`),
            price: { currency: cur, amount_minor: toMinor(s.total_amount, cur) },
            status: 'active' as const,
            emd_number: emds.get(s.id) ?? null,
          };
        }),
    };
  }

  async cancelAncillary(
    _orderRef: string,
    _item: unknown,
    _opts?: CallOptions,
  ): Promise<{ outcome: 'voided' | 'removed' }> {
    return this.#unsupported('removing services from an order');
  }
}
