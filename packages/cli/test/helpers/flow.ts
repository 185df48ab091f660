/**
 * Flag-driven flows of the BUILT binary against the real server, shared by the process tests: a stored
 * login, a command whose --json output is parsed, and a ticketed flight booking on a chosen supplier
 * (search → book → pay authorize → pay capture → ticket issue).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type CliResult, freshConfigDir, runCli } from './cli.ts';

export interface Account {
  email: string;
  password: string;
}

/** A config directory holding a login for `who`. */
export async function loginDir(env: Record<string, string>, who: Account): Promise<string> {
  const configDir = freshConfigDir();
  const login = await runCli(['login', '--email', who.email, '--password-stdin'], {
    env,
    input: who.password,
    configDir,
  });
  expect(login.code, login.stderr).toBe(0);
  return configDir;
}

export interface JsonResult<T> extends CliResult {
  /** stdout parsed as one JSON document (undefined when stdout is empty). */
  doc: T;
}

/** Runs the binary with `--json` appended and parses stdout (one document, or nothing). */
export async function runJson<T = Record<string, unknown>>(
  args: string[],
  options: { env: Record<string, string>; configDir: string; input?: string },
): Promise<JsonResult<T>> {
  const r = await runCli([...args, '--json'], options);
  const text = r.stdout.trim();
  let doc: T = undefined as T;
  if (text) {
    try {
      doc = JSON.parse(text) as T;
    } catch {
      throw new Error(`stdout of \`travel ${args.join(' ')} --json\` is not one JSON document:\n${r.stdout}`);
    }
  }
  return { ...r, doc };
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A passenger every sandbox flight supplier books (Duffel's airline wants an identity document). */
export const documentedAdult = {
  type: 'ADT',
  first_name: 'Ada',
  last_name: 'Lovelace',
  gender: 'F',
  date_of_birth: '1985-12-10',
  nationality: 'GB',
  document: { type: 'passport', number: '502135326', expiry: '2034-01-01', issuing_country: 'GB' },
};

export interface TicketedFlight {
  bookingId: number;
  pnr: string;
  supplier: string;
  currency: string;
  segmentIds: string[];
  passengerIds: string[];
}

/**
 * Books the cheapest offer of `supplier` flag-driven and takes it to `ticketed`. Every step's exit code and
 * outcome is asserted, so a broken step fails here with its stderr rather than later with a vague error.
 */
export async function ticketedFlight(
  env: Record<string, string>,
  configDir: string,
  supplier: 'amadeus' | 'duffel',
  options: { from?: string; to?: string; days?: number; reference: string; lastName?: string },
): Promise<TicketedFlight> {
  const search = await runJson<{
    offers: { offer_id: string; supplier: string; price: { currency: string } }[];
  }>(
    [
      'search',
      'flight',
      '--from',
      options.from ?? 'LHR',
      '--to',
      options.to ?? 'DXB',
      '--date',
      inDays(options.days ?? 40),
      '--supplier',
      supplier,
    ],
    { env, configDir },
  );
  expect(search.code, search.stderr).toBe(0);
  const offer = search.doc.offers.find((o) => o.supplier === supplier);
  expect(offer, `no ${supplier} offer: ${search.stderr}`).toBeDefined();
  if (!offer) throw new Error('unreachable');

  const pax = join(configDir, `pax-${supplier}.json`);
  // A last name can be a sandbox trigger (SCHEDULECHANGE: the airline moves the flight after booking).
  const adult = options.lastName ? { ...documentedAdult, last_name: options.lastName } : documentedAdult;
  writeFileSync(pax, JSON.stringify([adult]));
  const book = await runJson<{
    outcome: string;
    booking_id: number;
    pnr: string;
    booking: { status: string; flights: { segment_id: string }[]; passengers: { passenger_id: string }[] };
  }>(
    [
      'book',
      '--offer',
      offer.offer_id,
      '--passengers',
      pax,
      '--contact',
      'ada@example.org,+447700900123',
      // Without it a flag-driven booking asks for the profile's currency or USD (the offer is not known).
      '--currency',
      offer.price.currency,
      '--reference',
      options.reference,
    ],
    { env, configDir },
  );
  expect(book.code, book.stderr).toBe(0);
  expect(book.doc.outcome).toBe('confirmed');
  expect(book.doc.pnr).toMatch(/^[A-Z0-9]{6}$/);
  const id = String(book.doc.booking_id);

  const auth = await runJson<{ state: string }>(['pay', 'authorize', id, '--token', 'tok_sandbox_ok'], {
    env,
    configDir,
  });
  expect(auth.code, auth.stderr).toBe(0);
  expect(auth.doc.state).toBe('AUTHORIZED');
  const capture = await runJson<{ state: string }>(['pay', 'capture', id, '--confirm', '--yes'], {
    env,
    configDir,
  });
  expect(capture.code, capture.stderr).toBe(0);
  expect(capture.doc.state).toBe('CAPTURED');
  const ticket = await runJson<{ status: string; tickets: unknown[] }>(['ticket', 'issue', id], {
    env,
    configDir,
  });
  expect(ticket.code, ticket.stderr).toBe(0);
  expect(ticket.doc.status).toBe('ticketed');
  expect(ticket.doc.tickets.length).toBeGreaterThan(0);

  return {
    bookingId: book.doc.booking_id,
    pnr: book.doc.pnr,
    supplier,
    currency: offer.price.currency,
    segmentIds: book.doc.booking.flights.map((f) => f.segment_id),
    passengerIds: book.doc.booking.passengers.map((p) => p.passenger_id),
  };
}
