/**
 * The reservation engine: one set of handlers for hotel and transport bookings (book, cancel, the reads
 * and the admin override of every surface) and their jobs, bound to a vertical (hotel/index.ts,
 * transport/index.ts) that holds only what differs: the supplier port calls, the reference prefix, the
 * confirmation column, the input mapping and the view. The route files bind the result to operationIds.
 */
import type { JobHandler } from '../../jobs/runner.ts';
import type { Handler, HandlerResult, OperationContext } from '../../kernel/types.ts';
import type { BookAnswer, ReservationKind, SupplierReservation } from './book.ts';
import { type CancelKind, cancelReservation } from './cancel.ts';
import { cancelCheck } from './cancel-check.ts';
import type { ReservationDomainDeps } from './deps.ts';
import { cancelQueue, reconcileQueue } from './kind.ts';
import { reconcileReservation } from './reconcile.ts';
import { surfaceHandlers } from './surfaces.ts';

type Check = 'checkHotelRate' | 'quoteTransport';
type Book = 'bookHotel' | 'bookTransport';
type Cancel = 'cancelHotelBooking' | 'cancelTransportBooking';
type CancelOwn = 'customerCancelHotelBooking' | 'customerCancelTransportBooking';

/** What a vertical (hotel, transport) gives the engine. */
/**
 * `V`: the vertical's booking as the contract's type; `C`: its re-check's answer. Both type the engine's
 * handlers, so a hotel handler answers the hotel operation's types.
 */
export interface Vertical<
  B extends SupplierReservation,
  V extends object = object,
  C extends HandlerResult = HandlerResult,
> {
  /** The booker's view of the vertical: its kind, view, reference prefix, supplier lookup. */
  reservations(d: ReservationDomainDeps): ReservationKind<B, V>;
  /** The provider's cancellation and status calls. */
  cancellations(d: ReservationDomainDeps): CancelKind;
  /** The re-check before booking (hotel check-rate, transport quote). */
  check(d: ReservationDomainDeps, ctx: OperationContext<Check>): Promise<C>;
  /** The booking: the input mapped to the row and the supplier call, run by the shared booker. */
  book(d: ReservationDomainDeps, ctx: OperationContext<Book>): Promise<BookAnswer<V>>;
}

/** Every handler of one vertical. */
export function engine<B extends SupplierReservation, V extends object, C extends HandlerResult>(
  d: ReservationDomainDeps,
  v: Vertical<B, V, C>,
) {
  const r = v.reservations(d);
  const cancels = v.cancellations(d);
  const cancel =
    (owner: 'user' | 'any'): Handler<Cancel | CancelOwn> =>
    (ctx) =>
      cancelReservation(d, ctx, cancels, owner);
  return {
    ...surfaceHandlers({ db: d.db, clock: d.clock, kind: r.kind, view: r.view }),
    check: (ctx: OperationContext<Check>) => v.check(d, ctx),
    book: (ctx: OperationContext<Book>) => v.book(d, ctx),
    /** The user surface: the owner, their company's staff, a super_admin. */
    cancel: cancel('any'),
    /** The customer surface: the owner only. */
    cancelOwn: cancel('user'),
  };
}

/** The jobs that settle a vertical's bookings without a request: reconciliation and the cancel check. */
export function engineJobs<B extends SupplierReservation, V extends object, C extends HandlerResult>(
  d: ReservationDomainDeps,
  v: Vertical<B, V, C>,
): Record<string, JobHandler> {
  const r = v.reservations(d);
  return {
    [reconcileQueue(r.kind)]: reconcileReservation(d, r),
    [cancelQueue(r.kind)]: cancelCheck(d, v.cancellations(d)),
  };
}
