/**
 * createPnr passengers, in two steps that both run before the supplier is called and before any row is
 * written:
 * 1. `preparePassengers`: what users naturally send becomes a complete passenger. A saved traveler is
 *    read by `traveler_id`; the flat `doc_*` fields of the saved-traveler record are the nested
 *    `document`; `type` follows from the date of birth. Then every field the offer's
 *    `booking_requirements` ask for is checked: all missing fields are named at once in one 422.
 * 2. `normalizePassengers`: the rules a schema cannot express (mix vs offer, age vs type, names,
 *    document expiry), as 400 invalid_passenger.
 */
import { badRequest, notFound, ValidationError, type ValidationIssue } from '../../kernel/errors.ts';
import type {
  BookingRequirements,
  PassengerInput,
  PassengerRequirements,
  PassengerType,
  SupplierFlightOffer,
} from '../../suppliers/ports/flight.ts';
import { BASE_NEEDS, requirementsOf } from '../../suppliers/requirements.ts';
import type { BookableTraveler } from '../accounts/index.ts';

type DocType = 'passport' | 'id_card' | 'visa';
type Document = NonNullable<PassengerInput['document']>;

/** A passenger as the contract takes it (`Passenger`): every field optional, several nullable. */
export interface PassengerBody {
  passenger_id?: string;
  traveler_id?: number;
  type?: PassengerType;
  title?: string;
  first_name?: string;
  last_name?: string;
  gender?: 'M' | 'F' | 'O';
  date_of_birth?: string;
  nationality?: string | null;
  email?: string | null;
  phone?: string | null;
  document?: Document;
  doc_type?: DocType | null;
  doc_number?: string | null;
  doc_expiry?: string | null;
  doc_issuing_country?: string | null;
  is_primary?: boolean;
  nickname?: string | null;
}

/** A passenger after step 1 (passenger_id still optional; step 2 numbers them). */
export type PreparedPassenger = Omit<PassengerInput, 'passenger_id'> & {
  passenger_id?: string;
  traveler_id?: number;
};

const FLAT_DOC = {
  doc_type: 'type',
  doc_number: 'number',
  doc_expiry: 'expiry',
  doc_issuing_country: 'issuing_country',
} as const;
type FlatDocField = keyof typeof FLAT_DOC;
const FLAT_FIELDS = Object.keys(FLAT_DOC) as FlatDocField[];

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null && v !== '';

const AGE_LIMITS: Record<string, [number, number]> = { ADT: [12, 130], CHD: [2, 12], INF: [0, 2] };

function ageAt(dob: string, on: string): number {
  const [y1, m1, d1] = dob.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = on.split('-').map(Number) as [number, number, number];
  let age = y2 - y1;
  if (m2 < m1 || (m2 === m1 && d2 < d1)) age -= 1;
  return age;
}

/** The passenger type a date of birth makes on the day of the first departure. */
export function typeFromAge(dob: string, firstDeparture: string): PassengerType {
  const age = ageAt(dob, firstDeparture);
  return age < 2 ? 'INF' : age < 12 ? 'CHD' : 'ADT';
}

function journeyDays(offer: SupplierFlightOffer, today: Date) {
  const segs = offer.slices.flatMap((s) => s.segments);
  const first = (segs[0]?.departure_at ?? today.toISOString()).slice(0, 10);
  const last = (segs.at(-1)?.arrival_at ?? first).slice(0, 10);
  return { first, last };
}

/**
 * The document a passenger gives: the nested `document`, or the flat `doc_*` fields (all four), or both
 * when they agree. Partial flat fields are named as missing; disagreeing ones as conflicting.
 */
function documentOf(p: PassengerBody, at: (string | number)[], issues: ValidationIssue[]): Document | null {
  const flat = FLAT_FIELDS.filter((f) => given(p[f]));
  if (p.document) {
    for (const f of flat) {
      if (p[f] !== p.document[FLAT_DOC[f]])
        issues.push({
          loc: [...at, f],
          msg: `${f} differs from document.${FLAT_DOC[f]}; send one of them.`,
          type: 'value_error',
        });
    }
    return p.document;
  }
  if (flat.length === 0) return null;
  const missing = FLAT_FIELDS.filter((f) => !given(p[f]));
  for (const f of missing)
    issues.push({ loc: [...at, f], msg: `${f} is required with ${flat.join(', ')}.`, type: 'missing' });
  if (missing.length > 0) return null;
  return {
    type: p.doc_type as DocType,
    number: p.doc_number as string,
    expiry: p.doc_expiry as string,
    issuing_country: p.doc_issuing_country as string,
  };
}

/** The saved traveler's document, when its record holds all four fields. */
function travelerDocument(t: BookableTraveler): Document | null {
  if (!t.doc_type || !t.doc_number || !t.doc_expiry || !t.doc_issuing_country) return null;
  return {
    type: t.doc_type,
    number: t.doc_number,
    expiry: t.doc_expiry,
    issuing_country: t.doc_issuing_country,
  };
}

/**
 * Step 1. `lookup` reads a saved traveler the caller may book (null: not theirs or missing, answered 404
 * traveler_not_found as a missing one is). Throws one 422 `passenger_details_required` listing every
 * missing or conflicting field of every passenger.
 */
export async function preparePassengers(
  input: PassengerBody[],
  offer: SupplierFlightOffer,
  lookup: (travelerId: number) => Promise<BookableTraveler | null>,
  today: Date,
): Promise<PreparedPassenger[]> {
  const { first } = journeyDays(offer, today);
  const reqs = requirementsOf(offer);
  const issues: ValidationIssue[] = [];
  const out: PreparedPassenger[] = [];
  for (const [i, p] of input.entries()) {
    const at = ['body', 'passengers', i];
    let saved: BookableTraveler | null = null;
    if (p.traveler_id !== undefined) {
      saved = await lookup(p.traveler_id);
      if (!saved)
        throw notFound('traveler_not_found', `passengers[${i}]: saved traveler ${p.traveler_id} not found.`);
    }
    const pick = <K extends 'first_name' | 'last_name' | 'date_of_birth' | 'gender'>(k: K) =>
      given(p[k]) ? p[k] : (saved?.[k] ?? undefined);
    const opt = (k: 'nationality' | 'email' | 'phone') => (given(p[k]) ? p[k] : (saved?.[k] ?? undefined));
    const fields = {
      first_name: pick('first_name'),
      last_name: pick('last_name'),
      gender: pick('gender'),
      date_of_birth: pick('date_of_birth'),
    };
    for (const [k, v] of Object.entries(fields)) {
      if (!given(v))
        issues.push({
          loc: [...at, k],
          msg: `${k} is required (or traveler_id of a saved traveler).`,
          type: 'missing',
        });
    }
    const fromBody = documentOf(p, at, issues);
    const document = fromBody ?? (saved ? travelerDocument(saved) : null);
    const dob = fields.date_of_birth;
    const type = p.type ?? (given(dob) ? typeFromAge(dob, first) : undefined);
    const passenger: PreparedPassenger = {
      ...(p.passenger_id !== undefined ? { passenger_id: p.passenger_id } : {}),
      ...(saved ? { traveler_id: saved.traveler_id } : {}),
      type: type ?? 'ADT',
      ...(p.title !== undefined ? { title: p.title } : {}),
      first_name: fields.first_name ?? '',
      last_name: fields.last_name ?? '',
      gender: fields.gender ?? 'O',
      date_of_birth: dob ?? '',
      ...(given(opt('nationality')) ? { nationality: opt('nationality') as string } : {}),
      ...(given(opt('email')) ? { email: opt('email') as string } : {}),
      ...(given(opt('phone')) ? { phone: opt('phone') as string } : {}),
      ...(document ? { document } : {}),
    };
    if (type) checkRequirements(passenger, reqs, at, issues);
    out.push(passenger);
  }
  if (issues.length > 0) throw new ValidationError(issues, 'passenger_details_required');
  return out;
}

/** What the offer requires of this passenger's type, as 422 issues naming each missing field. */
function checkRequirements(
  p: PreparedPassenger,
  reqs: BookingRequirements,
  at: (string | number)[],
  issues: ValidationIssue[],
) {
  // A type the offer does not price is the mix rule's 400 (step 2); check what every type would need.
  const r: PassengerRequirements = reqs.passengers.find((x) => x.passenger_type === p.type) ?? {
    passenger_type: p.type,
    ...BASE_NEEDS,
  };
  const who = `The offer requires for each ${p.type} passenger`;
  if (r.identity_document && !p.document) {
    issues.push({
      loc: [...at, 'document'],
      msg: `${who} a travel document (${r.document_types.join(' or ')}): document, or doc_type, doc_number, doc_expiry and doc_issuing_country.`,
      type: 'missing',
    });
  } else if (r.identity_document && p.document && !r.document_types.includes(p.document.type)) {
    issues.push({
      loc: [...at, 'document', 'type'],
      msg: `${who} a document of type ${r.document_types.join(' or ')}, not ${p.document.type}.`,
      type: 'value_error',
    });
  }
  if (r.nationality && !p.nationality)
    issues.push({ loc: [...at, 'nationality'], msg: `${who} a nationality.`, type: 'missing' });
  if (r.phone && !p.phone)
    issues.push({ loc: [...at, 'phone'], msg: `${who} their own phone number.`, type: 'missing' });
}

/** Step 2: the rules a schema cannot say, as 400 invalid_passenger. */
export function normalizePassengers(
  input: PreparedPassenger[],
  offer: SupplierFlightOffer,
  today: Date,
): PassengerInput[] {
  const counts = { ADT: 0, CHD: 0, INF: 0 };
  const { first, last } = journeyDays(offer, today);
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
