/**
 * Travellers for a booking: from a JSON file (scripts), or picked from the account's saved travellers and
 * typed in on a terminal.
 */
import { readFile } from 'node:fs/promises';
import type { CreateBookingRequest } from '@travel/sdk';
import type { Ctx } from './context.ts';
import { UsageError } from './errors.ts';

export type Passenger = CreateBookingRequest['passengers'][number];

const REQUIRED = ['type', 'first_name', 'last_name', 'gender', 'date_of_birth'] as const;

/** Checks the shape the CLI can check; the server validates the rest (422 names the field). */
export function validatePassengers(value: unknown, source: string): Passenger[] {
  const list = Array.isArray(value) ? value : (value as { passengers?: unknown })?.passengers;
  if (!Array.isArray(list) || list.length === 0) {
    throw new UsageError(`${source}: expected a JSON array of passengers (or { "passengers": [...] })`);
  }
  list.forEach((p, i) => {
    for (const key of REQUIRED) {
      if (!p || typeof p !== 'object' || typeof (p as Record<string, unknown>)[key] !== 'string') {
        throw new UsageError(`${source}: passenger ${i + 1} lacks "${key}"`);
      }
    }
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
}

/** Saved travellers of the account; agents without a traveller list simply get none. */
async function savedTravelers(ctx: Ctx): Promise<SavedTraveler[]> {
  const result = await ctx.client().raw.GET('/api/v1/customer/travelers');
  if (!result.response.ok || !result.data) return [];
  return (result.data as { items: SavedTraveler[] }).items;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

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
      });
    }
  }
  while (count === undefined ? passengers.length === 0 : passengers.length < count) {
    passengers.push(await enterPassenger(ctx, passengers.length + 1, travelDate));
  }
  while (count === undefined && (await ctx.prompter.confirm('Add another traveller?', false))) {
    passengers.push(await enterPassenger(ctx, passengers.length + 1, travelDate));
  }
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
