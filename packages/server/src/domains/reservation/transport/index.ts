/** Ground-transfer bookings: what differs from hotels, given to the reservation engine (../engine.ts). */
import type { SupplierTransferBooking } from '../../../suppliers/ports.ts';
import type { Vertical } from '../engine.ts';
import { bookTransport, transportReservations } from './book.ts';
import { transportCancellations } from './cancel.ts';
import { quoteTransport } from './quote.ts';

export const transport: Vertical<SupplierTransferBooking> = {
  reservations: transportReservations,
  cancellations: transportCancellations,
  check: quoteTransport,
  book: bookTransport,
};
