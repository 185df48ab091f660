/** Ground-transfer bookings: what differs from hotels, given to the reservation engine (../engine.ts). */
import type { components } from '@travel/contract';
import type { SupplierTransferBooking } from '../../../suppliers/ports/transfer.ts';
import type { Vertical } from '../engine.ts';
import { bookTransport, transportReservations } from './book.ts';
import { transportCancellations } from './cancel.ts';
import { quoteTransport } from './quote.ts';

export const transport = {
  reservations: transportReservations,
  cancellations: transportCancellations,
  check: quoteTransport,
  book: bookTransport,
} satisfies Vertical<
  SupplierTransferBooking,
  components['schemas']['TransportBooking'],
  Awaited<ReturnType<typeof quoteTransport>>
>;
