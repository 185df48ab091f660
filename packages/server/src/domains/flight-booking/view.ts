/** Response shapes of a booking (openapi `FlightBooking`). */
import type { components } from '@travel/contract';
import type { BookingViewRow } from './store.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function bookingView(b: BookingViewRow): components['schemas']['FlightBooking'] {
  return {
    booking_id: b.id,
    pnr: b.pnr,
    status: b.status,
    passengers: b.passengers,
    contact: b.contact,
    flights: b.flights,
    pricing: b.pricing,
    // What the supplier charges, in its own currency, behind pricing (before our markup), and the rate.
    supplier_price: {
      currency: b.supplier_currency ?? b.pricing.currency,
      amount_minor: b.supplier_total_minor ?? b.pricing.total_minor - b.pricing.markup_minor,
    },
    fx_rate: b.fx_rate,
    payment_mode: b.payment_mode,
    supplier: b.supplier,
    supplier_order_ref: b.supplier_order_ref,
    offer_id: b.offer_id,
    client_ref: b.client_ref,
    snapshot_id: b.snapshot_id,
    search_id: b.search_id,
    ticketing_deadline: iso(b.ticketing_deadline),
    assigned_to_user_id: b.assigned_to_user_id,
    user_id: b.user_id,
    company_id: b.company_id,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}
