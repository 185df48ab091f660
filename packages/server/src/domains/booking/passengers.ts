/** createPnr passenger checks the schema cannot express: mix vs offer, age vs type, documents. */
import { badRequest } from '../../kernel/errors.ts';
import type { PassengerInput, SupplierFlightOffer } from '../../suppliers/ports.ts';

const AGE_LIMITS: Record<string, [number, number]> = { ADT: [12, 130], CHD: [2, 12], INF: [0, 2] };

function ageAt(dob: string, on: string): number {
  const [y1, m1, d1] = dob.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = on.split('-').map(Number) as [number, number, number];
  let age = y2 - y1;
  if (m2 < m1 || (m2 === m1 && d2 < d1)) age -= 1;
  return age;
}

/** Suppliers that ticket international itineraries only with passport data (consolidators). */
const NEEDS_DOCUMENT = new Set(['mystifly']);

export function normalizePassengers(
  input: (Omit<PassengerInput, 'passenger_id'> & { passenger_id?: string })[],
  offer: SupplierFlightOffer,
  today: Date,
): PassengerInput[] {
  const counts = { ADT: 0, CHD: 0, INF: 0 };
  const segs = offer.slices.flatMap((s) => s.segments);
  const first = (segs[0]?.departure_at ?? today.toISOString()).slice(0, 10);
  const last = (segs.at(-1)?.arrival_at ?? first).slice(0, 10);
  const todayIso = today.toISOString().slice(0, 10);
  const out = input.map((p, i) => {
    const where = `passengers[${i}]`;
    counts[p.type] += 1;
    if (
      !p.first_name.trim() ||
      !p.last_name.trim() ||
      !/^[\p{L} '\-.]+$/u.test(`${p.first_name}${p.last_name}`)
    ) {
      throw badRequest(
        'invalid_passenger',
        `${where}: names must be letters, spaces, hyphens or apostrophes.`,
      );
    }
    if (p.date_of_birth > todayIso)
      throw badRequest('invalid_passenger', `${where}: date_of_birth is in the future.`);
    const age = ageAt(p.date_of_birth, first);
    const [min, max] = AGE_LIMITS[p.type] as [number, number];
    if (age < min || age >= max) {
      throw badRequest(
        'invalid_passenger',
        `${where}: a ${p.type} must be ${min} to ${max - 1} years old on the day of travel (is ${age}).`,
      );
    }
    if (p.document && p.document.expiry < last) {
      throw badRequest('invalid_passenger', `${where}: the travel document expires before the journey ends.`);
    }
    if (!p.document && NEEDS_DOCUMENT.has(offer.supplier)) {
      throw badRequest(
        'invalid_passenger',
        `${where}: ${offer.supplier} needs the passenger's travel document.`,
      );
    }
    return { ...p, passenger_id: p.passenger_id ?? String(i + 1) } as PassengerInput;
  });
  const want = offer.passengers;
  if (counts.ADT !== want.adults || counts.CHD !== want.children || counts.INF !== want.infants) {
    throw badRequest(
      'invalid_passenger',
      `The passengers (${counts.ADT} ADT, ${counts.CHD} CHD, ${counts.INF} INF) do not match the offer (${want.adults}/${want.children}/${want.infants}).`,
    );
  }
  if (counts.INF > counts.ADT) throw badRequest('invalid_passenger', 'Each infant needs an adult.');
  const ids = new Set(out.map((p) => p.passenger_id));
  if (ids.size !== out.length) throw badRequest('invalid_passenger', 'passenger_id values must be unique.');
  return out;
}
