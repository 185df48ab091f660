/**
 * The scripted journey of issue 7 (see journey.ts) against the sandbox emulators, through the app's
 * request dispatch, once per flight supplier with Stripe for the money.
 */
import { useWorld } from './checks.ts';
import { flightJourney } from './journey.ts';

const ctx = useWorld();

type Raw = Record<string, unknown>;
const list = (v: unknown): Raw[] => (Array.isArray(v) ? (v as Raw[]) : []);

flightJourney(
  {
    supplier: 'duffel',
    // Full-service content with services (W6 sells none; low-cost content cannot be held).
    pick: (offers) => offers.find((o) => !o.offer.lcc && o.offer.validating_carrier !== 'W6'),
    // Duffel sells no services on a hold order ("not supported for hold orders yet"), and a PNR_FIRST
    // booking holds: the bags are priced into the booking and added once the hold is paid (ticketing).
    bagsOnOrder: 'once_paid',
    bagsInOrder: (raw) =>
      list(raw.services)
        .filter((x) => x.type === 'baggage')
        .reduce((n, x) => n + Number(x.quantity ?? 0), 0),
    // Seats in row 7 show as available; the airline refuses them when they are added.
    refusedSeat: (map) => map.rows.find((r) => r.row === 7)?.seats.find((x) => x.available)?.seat_number,
  },
  ctx,
);

flightJourney(
  {
    supplier: 'amadeus',
    pick: (offers) => offers[0],
    // The flexible brand: refundable and changeable, with bags of its own to add to.
    chooseUpsell: (alternatives) => alternatives.find((a) => a.fare_brand === 'FLEX'),
    bagsOnOrder: 'with_pnr',
    // One bag option covers its whole itinerary: count the bags of the first segment booked.
    bagsInOrder: (raw) => {
      const offer = list(raw.flightOffers)[0] ?? {};
      const first = list(list(offer.travelerPricings)[0]?.fareDetailsBySegment)[0] ?? {};
      const extra = (first.additionalServices ?? {}) as { chargeableCheckedBags?: { quantity?: number } };
      return extra.chargeableCheckedBags?.quantity ?? 0;
    },
    // Row 13 is blocked by the airline (emulator trigger): requested, it is refused.
    refusedSeat: () => '13C',
  },
  ctx,
);
