/**
 * Travellers for a booking: from a JSON file (scripts), or picked from the account's saved travellers and
 * typed in on a terminal.
 */
import { readFile } from 'node:fs/promises';
import type { CreateBookingRequest, FlightOffer } from '@travel/sdk';
import type { Ctx } from './context.ts';
import { UsageError } from './errors.ts';

/**
 * Every field either form of a passenger may carry: the contract's `Passenger` is an `anyOf` of its two
 * required sets (a saved traveler, or the names), which a file or a prompt fills in field by field.
 */
export type AllFields<U> = Partial<
  (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never
>;
export type Passenger = AllFields<CreateBookingRequest['passengers'][number]>;
/** What an offer needs of each passenger type (`booking_requirements`). */
export type Requirements = NonNullable<FlightOffer['booking_requirements']>;
type Needs = Requirements['passengers'][number];
type DocType = NonNullable<Passenger['document']>['type'];

const DOC_NAMES: Record<DocType, string> = { passport: 'passport', id_card: 'identity card', visa: 'visa' };

/** The needs of one passenger type (an offer states each type it prices). */
export function needsOf(requirements: Requirements | undefined, type: Passenger['type']): Needs | undefined {
  return requirements?.passengers.find((n) => n.passenger_type === type);
}

const has = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/**
 * The fields the offer requires that this passenger lacks, named as the server names them
 * (`document.number`), so a file can be fixed before anything is sent.
 */
export function missingFields(p: Passenger, needs: Needs | undefined): string[] {
  if (!needs) return [];
  const missing: string[] = [];
  if (needs.nationality && !has(p.nationality)) missing.push('nationality');
  if (needs.phone && !has(p.phone)) missing.push('phone');
  if (needs.identity_document) {
    const doc = p.document ?? {
      type: p.doc_type ?? undefined,
      number: p.doc_number ?? undefined,
      expiry: p.doc_expiry ?? undefined,
      issuing_country: p.doc_issuing_country ?? undefined,
    };
    for (const key of ['type', 'number', 'expiry', 'issuing_country'] as const)
      if (!has(doc[key])) missing.push(`document.${key}`);
    if (
      has(doc.type) &&
      needs.document_types.length > 0 &&
      !needs.document_types.includes(doc.type as DocType)
    )
      missing.push(`document.type (one of ${needs.document_types.join(', ')})`);
  }
  return missing;
}

/**
 * A usage error naming, for each passenger of a file, what the offer requires and the file lacks. A
 * passenger without `type` is checked as the type its date of birth makes on `travelDate` (the server
 * derives it the same way).
 */
export function checkRequirements(
  passengers: Passenger[],
  requirements: Requirements | undefined,
  source: string,
  travelDate?: Date,
) {
  const typeOf = (p: Passenger): Passenger['type'] =>
    p.type ?? (p.date_of_birth && travelDate ? passengerType(p.date_of_birth, travelDate) : 'ADT');
  const problems = passengers
    .map((p, i) => ({ i, missing: missingFields(p, needsOf(requirements, typeOf(p))) }))
    .filter((x) => x.missing.length > 0);
  if (problems.length === 0) return;
  const needsDoc = requirements?.passengers.find((n) => n.identity_document);
  throw new UsageError(
    `${source}: the offer requires ${problems.map((x) => `passenger ${x.i + 1}: ${x.missing.join(', ')}`).join('; ')}` +
      (needsDoc
        ? ` (an identity document: ${needsDoc.document_types.join(' or ') || 'passport'}, as "document": { "type", "number", "expiry", "issuing_country" })`
        : ''),
  );
}

/** Without a saved traveller (`traveler_id`), the server needs these; `type` follows from the date of birth. */
const REQUIRED = ['first_name', 'last_name', 'gender', 'date_of_birth'] as const;
const TYPES = ['ADT', 'CHD', 'INF'];

/**
 * Checks the shape the CLI can check, by the server's rules: a passenger is a saved traveller
 * (`traveler_id`) or names, gender and date of birth; `type` may be left out (the server derives it from
 * the date of birth). The server validates the rest (422 names the field).
 */
export function validatePassengers(value: unknown, source: string): Passenger[] {
  const list = Array.isArray(value) ? value : (value as { passengers?: unknown })?.passengers;
  if (!Array.isArray(list) || list.length === 0) {
    throw new UsageError(`${source}: expected a JSON array of passengers (or { "passengers": [...] })`);
  }
  list.forEach((p, i) => {
    if (!p || typeof p !== 'object') throw new UsageError(`${source}: passenger ${i + 1} is not an object`);
    const record = p as Record<string, unknown>;
    if (record.type !== undefined && !TYPES.includes(record.type as string))
      throw new UsageError(`${source}: passenger ${i + 1}: "type" must be one of ${TYPES.join(', ')}`);
    if (typeof record.traveler_id === 'number') return;
    const missing = REQUIRED.filter((key) => typeof record[key] !== 'string');
    if (missing.length > 0)
      throw new UsageError(
        `${source}: passenger ${i + 1} lacks ${missing.map((k) => `"${k}"`).join(', ')} (or a saved traveller's "traveler_id")`,
      );
  });
  return list as Passenger[];
}

export async function loadPassengersFile(path: string): Promise<Passenger[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`--passengers: cannot read ${path}`);
  }
  try {
    return validatePassengers(JSON.parse(text), `--passengers ${path}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--passengers ${path}: not valid JSON`);
  }
}

/** Passenger type from the date of birth on the travel date (infants < 2, children < 12). */
export function passengerType(dateOfBirth: string, travelDate: Date): Passenger['type'] {
  const dob = new Date(dateOfBirth);
  let age = travelDate.getUTCFullYear() - dob.getUTCFullYear();
  const m = travelDate.getUTCMonth() - dob.getUTCMonth();
  if (m < 0 || (m === 0 && travelDate.getUTCDate() < dob.getUTCDate())) age--;
  return age < 2 ? 'INF' : age < 12 ? 'CHD' : 'ADT';
}

interface SavedTraveler {
  traveler_id: number;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  gender: Passenger['gender'];
  nationality: string | null;
  email: string | null;
  phone: string | null;
  nickname: string | null;
  doc_type?: DocType | null;
  doc_number?: string | null;
  doc_expiry?: string | null;
  doc_issuing_country?: string | null;
}

/** Saved travellers of the account; agents without a traveller list simply get none. */
async function savedTravelers(ctx: Ctx): Promise<SavedTraveler[]> {
  const result = await ctx.client().raw.GET('/api/v1/customer/travelers');
  if (!result.response.ok || !result.data) return [];
  return (result.data as { items: SavedTraveler[] }).items;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const COUNTRY = /^[A-Za-z]{2}$/;

/**
 * Asks for what the offer requires of this passenger and they lack (nationality, phone, the identity
 * document), and nothing else. `label` is `Traveller 1`.
 */
export async function completePassenger(
  ctx: Ctx,
  passenger: Passenger,
  needs: Needs | undefined,
  label: string,
  travelDate: Date,
): Promise<Passenger> {
  const missing = missingFields(passenger, needs);
  if (!needs || missing.length === 0) return passenger;
  const p = ctx.prompter;
  const out: Passenger = { ...passenger };
  const country = (v: string) => (COUNTRY.test(v.trim()) ? true : 'a 2-letter country code, e.g. GB');
  if (missing.includes('nationality'))
    out.nationality = (await p.input(`${label}: nationality (country code, e.g. GB)`, { validate: country }))
      .trim()
      .toUpperCase();
  if (missing.includes('phone'))
    out.phone = (
      await p.input(`${label}: phone`, { validate: (v) => (v.trim() ? true : 'required') })
    ).trim();
  if (missing.some((m) => m.startsWith('document'))) {
    const types = (needs.document_types.length > 0 ? needs.document_types : ['passport']) as DocType[];
    const type =
      types.length === 1
        ? (types[0] as DocType)
        : await p.select<DocType>(
            `${label}: identity document`,
            types.map((t) => ({ name: DOC_NAMES[t], value: t })),
          );
    const name = DOC_NAMES[type];
    ctx.io.err(`The airline requires ${label.toLowerCase()}'s ${name} details.`);
    const number = (
      await p.input(`${label}: ${name} number`, {
        validate: (v) => (/^[A-Za-z0-9]{5,20}$/.test(v.trim()) ? true : '5 to 20 letters or digits'),
      })
    )
      .trim()
      .toUpperCase();
    const travel = travelDate.toISOString().slice(0, 10);
    const expiry = (
      await p.input(`${label}: ${name} expiry date (YYYY-MM-DD)`, {
        validate: (v) =>
          !DATE.test(v.trim())
            ? 'use YYYY-MM-DD'
            : v.trim() <= travel
              ? `it must be valid after ${travel}`
              : true,
      })
    ).trim();
    const issuing_country = (
      await p.input(`${label}: ${name} issuing country (e.g. GB)`, {
        default: out.nationality ?? '',
        validate: country,
      })
    )
      .trim()
      .toUpperCase();
    out.document = { type, number, expiry, issuing_country };
    delete out.doc_type;
    delete out.doc_number;
    delete out.doc_expiry;
    delete out.doc_issuing_country;
  }
  return out;
}

async function enterPassenger(ctx: Ctx, n: number, travelDate: Date): Promise<Passenger> {
  const p = ctx.prompter;
  const nonEmpty = (v: string) => (v.trim() ? true : 'required');
  const first_name = (await p.input(`Traveller ${n}: first name`, { validate: nonEmpty })).trim();
  const last_name = (await p.input(`Traveller ${n}: last name`, { validate: nonEmpty })).trim();
  const gender = await p.select<Passenger['gender']>(`Traveller ${n}: gender`, [
    { name: 'female', value: 'F' },
    { name: 'male', value: 'M' },
    { name: 'other', value: 'O' },
  ]);
  const date_of_birth = await p.input(`Traveller ${n}: date of birth (YYYY-MM-DD)`, {
    validate: (v) => (DATE.test(v) ? true : 'use YYYY-MM-DD'),
  });
  return { type: passengerType(date_of_birth, travelDate), first_name, last_name, gender, date_of_birth };
}

/** Picks saved travellers and asks for new ones until `count` (or until the user stops when unknown). */
export async function promptPassengers(
  ctx: Ctx,
  count: number | undefined,
  travelDate: Date,
  requirements?: Requirements,
): Promise<Passenger[]> {
  const saved = await savedTravelers(ctx);
  const passengers: Passenger[] = [];
  if (saved.length > 0) {
    const picked = await ctx.prompter.checkbox(
      'Saved travellers (space to pick, enter to go on)',
      saved.map((t) => ({
        name: `${t.first_name} ${t.last_name}${t.nickname ? ` (${t.nickname})` : ''} · ${t.date_of_birth}`,
        value: t,
      })),
    );
    for (const t of picked) {
      passengers.push({
        type: passengerType(t.date_of_birth, travelDate),
        first_name: t.first_name,
        last_name: t.last_name,
        gender: t.gender,
        date_of_birth: t.date_of_birth,
        ...(t.email ? { email: t.email } : {}),
        ...(t.phone ? { phone: t.phone } : {}),
        ...(t.nationality ? { nationality: t.nationality } : {}),
        // The saved document travels as the record has it (flat doc_* fields: the server reads both forms).
        ...(t.doc_type && t.doc_number && t.doc_expiry && t.doc_issuing_country
          ? {
              doc_type: t.doc_type,
              doc_number: t.doc_number,
              doc_expiry: t.doc_expiry,
              doc_issuing_country: t.doc_issuing_country,
            }
          : {}),
      });
    }
  }
  // Saved travellers first: each is asked only for what the offer needs and the saved record lacks.
  for (const [i, saved] of passengers.entries())
    passengers[i] = await completePassenger(
      ctx,
      saved,
      needsOf(requirements, saved.type),
      `Traveller ${i + 1}`,
      travelDate,
    );
  const enter = async () => {
    const n = passengers.length + 1;
    const entered = await enterPassenger(ctx, n, travelDate);
    return completePassenger(ctx, entered, needsOf(requirements, entered.type), `Traveller ${n}`, travelDate);
  };
  while (count === undefined ? passengers.length === 0 : passengers.length < count)
    passengers.push(await enter());
  while (count === undefined && (await ctx.prompter.confirm('Add another traveller?', false)))
    passengers.push(await enter());
  return passengers;
}

/** Contact email and phone for a hotel or transfer booking; the email defaults to the login's. */
export async function promptContact(ctx: Ctx): Promise<{ email: string; phone: string }> {
  const nonEmpty = (v: string) => (v.trim() ? true : 'required');
  const email = await ctx.prompter.input('Contact email', {
    default: ctx.profile().email ?? '',
    validate: nonEmpty,
  });
  const phone = await ctx.prompter.input('Contact phone', { validate: nonEmpty });
  return { email: email.trim(), phone: phone.trim() };
}
