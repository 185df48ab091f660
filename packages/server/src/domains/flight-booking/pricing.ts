/** Pricing before booking: revalidation, upsell, bags and fare rules, all resolved from offer_id. */
import { type Exchange, lockedExchange, shown, shownMoney } from '../../search/exchange.ts';
import { currentExchange, flightPriceChange, relockOffer } from '../../search/resolve-offer.ts';
import type { Currency } from '../../suppliers/ports/errors.ts';
import type { BagOption as PortBagOption } from '../../suppliers/ports/flight.ts';

const ONE_TO_ONE = (c: Currency): Exchange => ({ currency: c, from: c, fx_rate: 1 });

/** Bag prices in the offer's shown currency (at the offer's rate). */
function shownBagOptions(options: PortBagOption[], ex: Exchange | null): PortBagOption[] {
  return ex ? options.map((o) => ({ ...o, price: shownMoney(o.price, ex) })) : options;
}

import { newOfferId } from '../../internal/ids.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { OperationContext, RequestContext } from '../../kernel/types.ts';
import {
  type OfferBags,
  presentFlightOffer,
  type ResolvedFlightOffer,
  resolveFlightOffer,
  saveDerivedOffer,
} from '../../search/resolve-offer.ts';
import { logSupplierError } from '../../suppliers/http-errors.ts';
import { SupplierError } from '../../suppliers/ports/errors.ts';
import type { BagOption, FlightOffer, SupplierFlightOffer } from '../../suppliers/ports/flight.ts';
import type { PricedBags } from './bags.ts';
import type { BookingDeps } from './deps.ts';
import { callerOf, loadBooking } from './store.ts';
import { flightSupplierOf, supplierFailure } from './suppliers.ts';
import { parseJson } from './tables.ts';

/** The booking operations' contract lists offer_expired as a 400. */
export const BOOKING_OFFER = { expiredStatus: 400 } as const;

/** Where derived offers stand in their search: after its own offers, upsell alternatives before bag offers. */
const UPSELL_POSITION = 100_000;
const BAGS_POSITION = 200_000;

const OFFER_CODES = { failed: 'supplier_error', notFound: 'offer_not_found' } as const;

function checkCurrency(r: ResolvedFlightOffer, currency: unknown) {
  if (currency !== undefined && currency !== r.offer.price.currency) {
    throw badRequest(
      'currency_mismatch',
      `The offer is priced in ${r.offer.price.currency}, not ${String(currency)}.`,
      { offer_currency: r.offer.price.currency },
    );
  }
}

export class PricingService {
  readonly #d: BookingDeps;
  constructor(d: BookingDeps) {
    this.#d = d;
  }

  async #resolve(
    ctx: OperationContext<
      'revalidateOffer' | 'getUpsellOffers' | 'getBagCatalogue' | 'repriceWithBags' | 'getFareRules'
    >,
  ) {
    const body = ctx.body;
    const r = await this.#offer(ctx, body.offer_id);
    checkCurrency(r, 'currency' in body ? body.currency : undefined);
    return { r, supplier: flightSupplierOf(this.#d.suppliers, r.supplier) };
  }

  #offer(ctx: RequestContext, offerId: string) {
    return resolveFlightOffer(this.#d.db, offerId, callerOf(ctx), this.#d.clock, BOOKING_OFFER);
  }

  /**
   * A price change is reported explicitly: price_changed with the previous and the new total. A bag offer
   * is re-priced with its bags, so its total compares like for like.
   */
  async revalidate(ctx: OperationContext<'revalidateOffer'>) {
    const { r, supplier } = await this.#resolve(ctx);
    const verbose = ctx.query.verbose === true;
    const call = { signal: ctx.signal };
    try {
      const include = { bags: verbose, fareRules: verbose };
      const p = r.bags
        ? {
            ...(await supplier.repriceWithBags(r.supplierOffer, r.bags.selections, call)),
            ...(verbose ? { fare_rules: await supplier.fareRules(r.supplierOffer, call) } : {}),
          }
        : await supplier.price(r.supplierOffer, include, call);
      // Re-priced at today's exchange rate: a rate that drifted since the search is a price change too.
      const ex = await currentExchange(this.#d.suppliers.fx, r, p.offer.price.currency);
      const offer = presentFlightOffer(r, p.offer, r.offer_id, ex);
      const change = flightPriceChange(r, offer);
      if (change.price_change_cause === 'rate') {
        await relockOffer(this.#d.db, r.offer_id, offer, offer.price.total_minor);
      }
      return {
        offer,
        available: true,
        ...change,
        ...(verbose
          ? { fare_rules: p.fare_rules ?? [], bag_options: shownBagOptions(p.bag_options ?? [], ex) }
          : {}),
      };
    } catch (err) {
      const kind = (err as { kind?: string }).kind;
      if (kind === 'sold_out' || kind === 'offer_expired') {
        return {
          offer: r.offer,
          available: false,
          price_changed: false,
          previous_total_minor: r.offer.price.total_minor,
          price_change_cause: null,
        };
      }
      return supplierFailure(err, OFFER_CODES, ctx.log);
    }
  }

  /** Alternatives are stored as offers of the same search, so each can be revalidated and booked. */
  async upsell(ctx: OperationContext<'getUpsellOffers'>) {
    const { r, supplier } = await this.#resolve(ctx);
    if (!supplier.capabilities.upsell) {
      throw badRequest('upsell_unsupported', `Supplier ${r.supplier} offers no branded-fare upsell.`);
    }
    let alts: SupplierFlightOffer[];
    try {
      alts = await supplier.upsell(r.supplierOffer, { signal: ctx.signal });
    } catch (err) {
      return supplierFailure(
        err,
        {
          failed: 'upsell_failed',
          unsupported: 'upsell_unsupported',
          notFound: 'offer_not_found',
        },
        ctx.log,
      );
    }
    const alternatives: FlightOffer[] = [];
    for (const [i, a] of alts.entries()) {
      const offer = presentFlightOffer(r, a, newOfferId());
      alternatives.push(offer);
      await saveDerivedOffer(this.#d.db, r, {
        offer,
        supplier_ref: a.supplier_ref,
        supplier_price: a.price,
        position: UPSELL_POSITION + i,
      });
    }
    return { offer_id: r.offer_id, alternatives };
  }

  async bagCatalogue(ctx: OperationContext<'getBagCatalogue'>) {
    const { r, supplier } = await this.#resolve(ctx);
    try {
      const p = await supplier.price(r.supplierOffer, { bags: true }, { signal: ctx.signal });
      const offer = presentFlightOffer(r, p.offer);
      const { price_changed, previous_total_minor } = flightPriceChange(r, offer);
      return {
        offer,
        price_changed,
        previous_total_minor,
        bag_options: shownBagOptions(p.bag_options ?? [], lockedExchange(r.offer, p.offer.price.currency)),
      };
    } catch (err) {
      return supplierFailure(
        err,
        {
          failed: 'bags_pricing_failed',
          unsupported: 'bags_unsupported',
          notFound: 'offer_not_found',
        },
        ctx.log,
      );
    }
  }

  /**
   * The returned offer's total includes the bags (bags_minor is the part of it they account for). With bags
   * chosen it is a new offer of the same search: booking its offer_id books the bags. A bag offer re-priced
   * again starts from the offer it was made from, so the new selections replace the old.
   */
  async repriceBags(ctx: OperationContext<'repriceWithBags'>) {
    const given = await this.#resolve(ctx);
    const supplier = given.supplier;
    const r = given.r.bags ? await this.#offer(ctx, given.r.bags.base_offer_id) : given.r;
    const selections = ctx.body.selections ?? [];
    const unnamed = selections.findIndex((sel) => !sel.bag_option_id);
    if (unnamed >= 0)
      throw badRequest(
        'invalid_bag_selection',
        `selections[${unnamed}]: bag_option_id is required; take it from the bag catalogue.`,
      );
    let p: Awaited<ReturnType<typeof supplier.repriceWithBags>>;
    try {
      p = await supplier.repriceWithBags(r.supplierOffer, selections, { signal: ctx.signal });
    } catch (err) {
      const kind = (err as { kind?: string }).kind;
      if (kind === 'invalid_request') {
        if (err instanceof SupplierError) logSupplierError(ctx.log, err, 'invalid_bag_selection');
        throw badRequest(
          'invalid_bag_selection',
          'The supplier does not accept this bag selection for the offer; take the options from the bag catalogue.',
        );
      }
      return supplierFailure(
        err,
        {
          failed: 'reprice_failed',
          unsupported: 'bags_unsupported',
          notFound: 'offer_not_found',
        },
        ctx.log,
      );
    }
    // The bag charge is what the selected options cost; adapters fold it into the offer price (base).
    let bags = 0;
    const options: BagOption[] = [];
    for (const sel of selections) {
      const opt = (p.bag_options ?? []).find((o) => o.bag_option_id === sel.bag_option_id);
      if (!opt) throw badRequest('invalid_bag_selection', `Unknown bag option ${sel.bag_option_id}.`);
      bags += opt.price.amount_minor * sel.quantity;
      if (!options.includes(opt)) options.push(opt);
    }
    const offer = presentFlightOffer(r, p.offer, selections.length > 0 ? newOfferId() : r.offer_id);
    if (selections.length > 0) {
      // The options chosen are kept as priced: a booking of this offer shows its bags from them (bags.ts).
      const priced: OfferBags & PricedBags = {
        selections,
        amount_minor: bags,
        base_offer_id: r.offer_id,
        options,
      };
      await saveDerivedOffer(this.#d.db, r, {
        offer,
        supplier_ref: p.offer.supplier_ref,
        supplier_price: p.offer.price,
        bags: priced,
        position: BAGS_POSITION,
      });
    }
    // Compared at the supplier, in its currency, without the bags: the rate is the one locked with the offer.
    const supplierTotal = p.offer.price.total_minor - (p.offer.price.markup_minor ?? 0);
    return {
      offer,
      bags_minor: shown(
        bags,
        lockedExchange(r.offer, p.offer.price.currency) ?? ONE_TO_ONE(offer.price.currency),
      ),
      selections,
      price_changed: supplierTotal - bags !== r.supplierOffer.price.total_minor,
      previous_total_minor: r.offer.price.total_minor,
    };
  }

  async fareRules(ctx: OperationContext<'getFareRules'>) {
    const { r, supplier } = await this.#resolve(ctx);
    try {
      return {
        offer_id: r.offer_id,
        booking_id: null,
        rules: await supplier.fareRules(r.supplierOffer, { signal: ctx.signal }),
      };
    } catch (err) {
      return supplierFailure(err, OFFER_CODES, ctx.log);
    }
  }

  /** Rules of a booked offer: read from the supplier with the offer kept on the booking. */
  async bookingRules(ctx: OperationContext<'getBookingFareRules'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    const offer = { ...(b.offer as object), supplier_ref: parseJson(b.supplier_ref) } as SupplierFlightOffer;
    try {
      return {
        offer_id: b.offer_id,
        booking_id: b.id,
        rules: await supplier.fareRules(offer, { signal: ctx.signal }),
      };
    } catch {
      // The offer may have expired at the supplier; the booking's own conditions still answer.
      return { offer_id: b.offer_id, booking_id: b.id, rules: conditionRules(b.offer) };
    }
  }
}

function conditionRules(offer: Record<string, unknown>) {
  return [
    {
      category: 'refund',
      title: 'Refunds',
      text: offer.refundable ? 'Refundable (fees may apply).' : 'Non-refundable.',
    },
    {
      category: 'change',
      title: 'Changes',
      text: offer.changeable ? 'Changeable (fees may apply).' : 'Not changeable.',
    },
  ];
}
