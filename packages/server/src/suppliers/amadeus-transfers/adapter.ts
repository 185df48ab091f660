import { percentOf } from '../../internal/money.ts';
import { AmadeusClient, type AmadeusClientConfig, toSupplierError } from '../amadeus/client.ts';
import { arr, obj, s, type Wire } from '../amadeus/mapper.ts';
import type { CallOptions } from '../ports/errors.ts';
import { SupplierError } from '../ports/errors.ts';
import type {
  SupplierTransferBooking,
  TransferOffer,
  TransferPassengerInput,
  TransferSearchQuery,
  TransferSupplier,
} from '../ports/transfer.ts';
import { bookingFromAmadeus, decodeQuote, offerFromAmadeus, searchBody } from './mapper.ts';

/**
 * TransferSupplier over Amadeus Transfers (Search, Booking, Management) through the official client.
 * Reading an order back and finding it by client reference use our emulator's documented extensions.
 */

const OFFER_TTL_MS = 30 * 60_000;
const ORDERS = '/v1/ordering/transfer-orders';

export interface AmadeusTransfersConfig extends AmadeusClientConfig {
  now?: () => number;
}

export class AmadeusTransfersAdapter implements TransferSupplier {
  readonly name = 'amadeus_transfers' as const;
  readonly #client: AmadeusClient;
  readonly #now: () => number;
  constructor(config: AmadeusTransfersConfig) {
    this.#client = new AmadeusClient(config, 'amadeus_transfers');
    this.#now = config.now ?? Date.now;
  }

  async #run(fn: Parameters<AmadeusClient['call']>[0], opts?: CallOptions, create = false): Promise<Wire> {
    try {
      return obj((await this.#client.call(fn, opts)).body);
    } catch (e) {
      throw toSupplierError('amadeus_transfers', e, create);
    }
  }

  async search(query: TransferSearchQuery, opts?: CallOptions): Promise<TransferOffer[]> {
    const res = await this.#run(
      (sdk) => sdk.shopping.transferOffers.post(JSON.stringify(searchBody(query))),
      opts,
    );
    const expires = new Date(this.#now() + OFFER_TTL_MS).toISOString();
    return arr(res.data)
      .filter((o) => Number(obj(arr(obj(o.vehicle).baggages)[0]).count ?? 99) >= query.luggage)
      .map((o) => offerFromAmadeus(o, query, expires));
  }

  async quote(quoteId: string, opts?: CallOptions) {
    const key = decodeQuote(quoteId);
    if (!key) throw new SupplierError('amadeus_transfers', 'invalid_request', 'Unknown transfer quote id');
    const offers = await this.search(key.query, opts);
    const offer = offers.find((o) => decodeQuote(o.quote_id)?.offerId === key.offerId);
    if (!offer)
      throw new SupplierError(
        'amadeus_transfers',
        'offer_expired',
        'The transfer offer is no longer available',
      );
    return { available: true, offer, price_changed: offer.price.total_minor !== key.totalMinor };
  }

  async book(
    input: {
      quote_id: string;
      passengers: TransferPassengerInput[];
      contact: { email: string; phone: string; name?: string };
      flight_number?: string;
      hotel_name?: string;
      special_requests?: string;
      client_reference: string;
    },
    opts?: CallOptions,
  ): Promise<SupplierTransferBooking> {
    const key = decodeQuote(input.quote_id);
    if (!key) throw new SupplierError('amadeus_transfers', 'invalid_request', 'Unknown transfer quote id');
    const data: Wire = {
      passengers: input.passengers.map((p) => ({
        firstName: p.first_name,
        lastName: p.last_name,
        title: p.title ?? 'MR',
        contacts: { phoneNumber: p.phone ?? input.contact.phone, email: p.email ?? input.contact.email },
      })),
      payment: { methodOfPayment: 'TRAVEL_ACCOUNT' },
      // Our booking id rides in the corporate info map (key CR), which the order keeps.
      corporation: { info: { CR: input.client_reference } },
    };
    if (input.special_requests) data.note = input.special_requests;
    if (input.flight_number) data.flightNumber = input.flight_number;
    const res = await this.#run(
      (sdk) => sdk.ordering.transferOrders.post(JSON.stringify({ data }), key.offerId),
      opts,
      true,
    );
    return bookingFromAmadeus(obj(res.data));
  }

  async getBooking(bookingRef: string, opts?: CallOptions): Promise<SupplierTransferBooking> {
    const res = await this.#run((sdk) => sdk.client.get(`${ORDERS}/${bookingRef}`), opts);
    return bookingFromAmadeus(obj(res.data));
  }

  async findBookingByClientReference(
    clientReference: string,
    opts?: CallOptions,
  ): Promise<SupplierTransferBooking | null> {
    const res = await this.#run((sdk) => sdk.client.get(ORDERS, { clientReference }), opts);
    const first = arr(res.data)[0];
    return first ? bookingFromAmadeus(first) : null;
  }

  async cancel(bookingRef: string, confirmationNumber: string, opts?: CallOptions) {
    const booking = await this.getBooking(bookingRef, opts);
    const res = await this.#run(
      (sdk) => sdk.ordering.transferOrder(bookingRef).transfers.cancellation.post('{}', confirmationNumber),
      opts,
    );
    // The fee follows the offer's cancellation rules at the moment of cancelling.
    const t = obj(arr(obj(booking.raw).transfers)[0]);
    const hoursBefore = (Date.parse(`${s(obj(t.start).dateTime)}Z`) - this.#now()) / 3_600_000;
    const rule = arr(t.cancellationRules).find(
      (r) => hoursBefore >= Number(r.metricMin ?? 0) && hoursBefore < Number(r.metricMax ?? Infinity),
    );
    const pct = rule ? Number(rule.feeValue ?? 0) : 0;
    return {
      cancelled: s(obj(res.data).reservationStatus) === 'CANCELLED',
      fee: {
        currency: booking.total.currency,
        amount_minor: percentOf(booking.total.amount_minor, pct),
      },
    };
  }
}
