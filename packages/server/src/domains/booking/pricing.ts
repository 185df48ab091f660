/** Pricing before booking: revalidation, upsell, bags and fare rules, all resolved from offer_id. */
import { randomBytes } from 'node:crypto';
import { badRequest } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import { searchDb } from '../../search/tables.ts';
import type { BagSelection, SupplierFlightOffer } from '../../suppliers/ports.ts';
import type { BookingDeps } from './deps.ts';
import { presentOffer, type ResolvedOffer, resolveOffer } from './offers.ts';
import { callerOf, loadBooking } from './store.ts';
import { flightSupplierOf, supplierFailure } from './suppliers.ts';
import { parseJson } from './tables.ts';

const OFFER_CODES = { failed: 'supplier_error', notFound: 'offer_not_found' } as const;

function checkCurrency(r: ResolvedOffer, currency: unknown) {
  if (currency !== undefined && currency !== r.offer.price.currency) {
    throw badRequest(
      'currency_mismatch',
      `The offer is priced in ${r.offer.price.currency}, not ${String(currency)}.`,
    );
  }
}

export class PricingService {
  readonly #d: BookingDeps;
  constructor(d: BookingDeps) {
    this.#d = d;
  }

  async #resolve(ctx: RequestContext) {
    const body = ctx.body as { offer_id: string; currency?: string };
    const r = await resolveOffer(this.#d.db, body.offer_id, callerOf(ctx), this.#d.clock.now());
    checkCurrency(r, body.currency);
    return { r, supplier: flightSupplierOf(this.#d.suppliers, r.supplier) };
  }

  /** A price change is reported explicitly: price_changed with the previous and the new total. */
  async revalidate(ctx: RequestContext) {
    const { r, supplier } = await this.#resolve(ctx);
    const verbose = ctx.query.verbose === true;
    try {
      const p = await supplier.price(
        r.supplierOffer,
        { bags: verbose, fareRules: verbose },
        { signal: ctx.signal },
      );
      const offer = presentOffer(r, p.offer);
      return {
        offer,
        available: true,
        price_changed: (offer.price as { total_minor: number }).total_minor !== r.offer.price.total_minor,
        previous_total_minor: r.offer.price.total_minor,
        ...(verbose ? { fare_rules: p.fare_rules ?? [], bag_options: p.bag_options ?? [] } : {}),
      };
    } catch (err) {
      const kind = (err as { kind?: string }).kind;
      if (kind === 'sold_out' || kind === 'offer_expired') {
        return {
          offer: r.offer,
          available: false,
          price_changed: false,
          previous_total_minor: r.offer.price.total_minor,
        };
      }
      return supplierFailure(err, OFFER_CODES);
    }
  }

  /** Alternatives are stored as offers of the same search, so each can be revalidated and booked. */
  async upsell(ctx: RequestContext) {
    const { r, supplier } = await this.#resolve(ctx);
    if (!supplier.capabilities.upsell) {
      throw badRequest('upsell_unsupported', `Supplier ${r.supplier} offers no branded-fare upsell.`);
    }
    let alts: SupplierFlightOffer[];
    try {
      alts = await supplier.upsell(r.supplierOffer, { signal: ctx.signal });
    } catch (err) {
      return supplierFailure(err, {
        failed: 'upsell_failed',
        unsupported: 'upsell_unsupported',
        notFound: 'offer_not_found',
      });
    }
    const sdb = searchDb(this.#d.db);
    const expires = new Date(r.supplierOffer.expires_at);
    const alternatives: Record<string, unknown>[] = [];
    for (const [i, a] of alts.entries()) {
      const id = `of_${randomBytes(12).toString('base64url')}`;
      const offer = presentOffer(r, a, id);
      alternatives.push(offer);
      await sdb
        .insertInto('search_offers')
        .values({
          offer_id: id,
          search_id: r.search_id,
          supplier: r.supplier,
          position: 100_000 + i,
          offer: JSON.stringify(offer),
          supplier_ref: JSON.stringify(a.supplier_ref ?? null),
          total_minor: (offer.price as { total_minor: number }).total_minor,
          expires_at: Number.isNaN(expires.getTime())
            ? new Date(this.#d.clock.now().getTime() + 900_000)
            : expires,
        })
        .execute();
    }
    return { offer_id: r.offer_id, alternatives };
  }

  async bagCatalogue(ctx: RequestContext) {
    const { r, supplier } = await this.#resolve(ctx);
    try {
      const p = await supplier.price(r.supplierOffer, { bags: true }, { signal: ctx.signal });
      const offer = presentOffer(r, p.offer);
      return {
        offer,
        price_changed: (offer.price as { total_minor: number }).total_minor !== r.offer.price.total_minor,
        previous_total_minor: r.offer.price.total_minor,
        bag_options: p.bag_options ?? [],
      };
    } catch (err) {
      return supplierFailure(err, {
        failed: 'bags_pricing_failed',
        unsupported: 'bags_unsupported',
        notFound: 'offer_not_found',
      });
    }
  }

  /** The returned total includes the bags (bags_minor is the part of it they account for). */
  async repriceBags(ctx: RequestContext) {
    const { r, supplier } = await this.#resolve(ctx);
    const selections = ((ctx.body as { selections?: BagSelection[] }).selections ?? []) as BagSelection[];
    let p: Awaited<ReturnType<typeof supplier.repriceWithBags>>;
    try {
      p = await supplier.repriceWithBags(r.supplierOffer, selections, { signal: ctx.signal });
    } catch (err) {
      const kind = (err as { kind?: string }).kind;
      if (kind === 'invalid_request') throw badRequest('invalid_bag_selection', (err as Error).message);
      return supplierFailure(err, {
        failed: 'reprice_failed',
        unsupported: 'bags_unsupported',
        notFound: 'offer_not_found',
      });
    }
    const offer = presentOffer(r, p.offer);
    const total = (offer.price as { total_minor: number }).total_minor;
    // The bag charge is what the selected options cost; adapters fold it into the offer price differently.
    const bags = selections.reduce((sum, sel) => {
      const opt = (p.bag_options ?? []).find((o) => o.bag_option_id === sel.bag_option_id);
      return sum + (opt ? opt.price.amount_minor * sel.quantity : 0);
    }, 0);
    return {
      offer,
      bags_minor: bags,
      selections,
      price_changed: total - bags !== r.offer.price.total_minor,
      previous_total_minor: r.offer.price.total_minor,
    };
  }

  async fareRules(ctx: RequestContext) {
    const { r, supplier } = await this.#resolve(ctx);
    try {
      return {
        offer_id: r.offer_id,
        booking_id: null,
        rules: await supplier.fareRules(r.supplierOffer, { signal: ctx.signal }),
      };
    } catch (err) {
      return supplierFailure(err, OFFER_CODES);
    }
  }

  /** Rules of a booked offer: read from the supplier with the offer kept on the booking. */
  async bookingRules(ctx: RequestContext) {
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
