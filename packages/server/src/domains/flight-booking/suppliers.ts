/**
 * What the booking domains need of the supplier registry: a flight supplier by name and the payment
 * provider. Until `suppliers/registry.ts` exists, `sandboxBookingSuppliers` builds the adapters against
 * the emulators' URLs; the registry can implement this interface directly.
 */

import type { FxSource } from '../../internal/fx.ts';
import { type ErrorCode, HttpError, notSupported } from '../../kernel/errors.ts';
import type { Logger } from '../../kernel/types.ts';
import { AmadeusFlightAdapter } from '../../suppliers/amadeus/index.ts';
import { DuffelFlightAdapter } from '../../suppliers/duffel/index.ts';
import { logSupplierError } from '../../suppliers/http-errors.ts';
import { MystiflyAdapter } from '../../suppliers/mystifly/index.ts';
import { type FlightSupplierName, SupplierError } from '../../suppliers/ports/errors.ts';
import type { FlightSupplier } from '../../suppliers/ports/flight.ts';
import type { PaymentProvider } from '../../suppliers/ports/payment.ts';
import { StripeAdapter } from '../../suppliers/stripe/index.ts';

export interface BookingSuppliers {
  flight(name: string): FlightSupplier | undefined;
  payments(): PaymentProvider;
  /** Today's exchange rates for re-pricing (revalidation); absent: the rate locked with each offer. */
  fx?: FxSource;
}

export interface SandboxUrls {
  duffel?: string;
  mystifly?: string;
  stripe: string;
  amadeus?: string;
}

export function sandboxBookingSuppliers(
  urls: SandboxUrls,
  extra: Partial<Record<FlightSupplierName, FlightSupplier>> = {},
): BookingSuppliers {
  const flights: Partial<Record<string, FlightSupplier>> = { ...extra };
  if (urls.amadeus)
    flights.amadeus ??= new AmadeusFlightAdapter({
      clientId: 'sandbox-client-id',
      clientSecret: 'sandbox-client-secret',
      baseUrl: urls.amadeus,
      timeoutMs: 10_000,
    });
  if (urls.duffel)
    flights.duffel ??= new DuffelFlightAdapter({
      token: 'duffel_test_sandbox',
      baseUrl: urls.duffel,
      timeoutMs: 10_000,
    });
  if (urls.mystifly) {
    flights.mystifly ??= new MystiflyAdapter({
      baseUrl: urls.mystifly,
      userName: 'mystifly_user',
      password: 'mystifly_pass',
      accountNumber: 'MCN004085',
      timeoutMs: 10_000,
    });
  }
  const stripe = new StripeAdapter({ baseUrl: urls.stripe, secretKey: 'sk_test_sandbox', timeoutMs: 10_000 });
  return { flight: (n) => flights[n], payments: () => stripe };
}

export function flightSupplierOf(s: BookingSuppliers, name: string): FlightSupplier {
  const f = s.flight(name);
  if (!f) throw new HttpError(400, 'supplier_error', `Supplier ${name} is not available.`);
  return f;
}

/**
 * Maps a supplier failure to the operation's error. `unsupported` becomes 501 or the operation's 400 code;
 * `not_found` the operation's 404; everything else the operation's 400 failure code. The answer is in our
 * words: the supplier's own message (which may echo its paths, ids or internals) goes to the log
 * (`log`, when given) and rides along as the error's cause, never to the caller.
 */
export function supplierFailure(
  err: unknown,
  codes: { failed: ErrorCode; unsupported?: ErrorCode | 501; notFound?: ErrorCode },
  log?: Logger,
): never {
  if (err instanceof HttpError) throw err;
  if (!(err instanceof SupplierError)) throw err;
  if (err.kind === 'unsupported') {
    if (codes.unsupported === 501 || codes.unsupported === undefined) {
      logSupplierError(log, err, 'not_supported_by_provider');
      throw notSupported('not_supported_by_provider', UNSUPPORTED);
    }
    logSupplierError(log, err, codes.unsupported);
    throw new HttpError(400, codes.unsupported, UNSUPPORTED, { cause: err });
  }
  if (err.kind === 'not_found' && codes.notFound) {
    logSupplierError(log, err, codes.notFound);
    throw new HttpError(404, codes.notFound, 'Not found at the supplier.', { cause: err });
  }
  logSupplierError(log, err, codes.failed);
  throw new HttpError(400, codes.failed, REFUSED, { cause: err });
}

const UNSUPPORTED = 'The supplier does not support this operation for this booking.';
const REFUSED = 'The supplier refused the request or could not complete it.';
