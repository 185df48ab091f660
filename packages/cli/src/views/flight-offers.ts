/** Ranking and the table of flight offers (price, carriers, stops, duration, supplier, refundable). */
import type { FlightOffer } from '@travel/sdk';
import { byPrice, duration, money, priceColumns, renderTable, supplierPriceNote } from '../ui/table.ts';

const totalMinutes = (offer: FlightOffer) => offer.slices.reduce((sum, s) => sum + s.duration_minutes, 0);
const totalStops = (offer: FlightOffer) => offer.slices.reduce((sum, s) => sum + s.stops, 0);

/** Cheapest first; ties go to the shorter trip, then fewer stops, then a stable id order. */
export function rankOffers(offers: FlightOffer[]): FlightOffer[] {
  return byPrice<FlightOffer>(
    (a, b) =>
      totalMinutes(a) - totalMinutes(b) ||
      totalStops(a) - totalStops(b) ||
      a.offer_id.localeCompare(b.offer_id),
  )(offers);
}

export function carriers(offer: FlightOffer): string {
  const codes = new Set(offer.slices.flatMap((s) => s.segments.map((seg) => seg.marketing_carrier)));
  return [...codes].join(',') || offer.validating_carrier;
}

export function offerSummary(offer: FlightOffer): string {
  const route = offer.slices.map((s) => `${s.origin}-${s.destination}`).join(' / ');
  const original = supplierPriceNote(offer);
  return `${money(offer.price.total_minor, offer.price.currency)}${original ? ` (supplier ${original})` : ''}  ${carriers(offer)}  ${route}  ${offer.slices
    .map((s) => `${s.stops} stop${s.stops === 1 ? '' : 's'}`)
    .join('/')}  ${offer.supplier}`;
}

export function offerTable(offers: FlightOffer[], width?: number): string[] {
  const price = priceColumns(offers);
  return renderTable(
    ['#', ...price.headers, 'carriers', 'stops', 'duration', 'supplier', 'refundable', 'offer'],
    offers.map((offer, i) => [
      String(i + 1),
      ...price.cells(offer),
      carriers(offer),
      offer.slices.map((s) => String(s.stops)).join('/'),
      offer.slices.map((s) => duration(s.duration_minutes)).join(' / '),
      offer.supplier,
      offer.refundable ? 'yes' : 'no',
      offer.offer_id,
    ]),
    width,
  );
}
