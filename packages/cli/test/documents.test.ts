/**
 * Documents, lists and cancel quotes of the BUILT binary as processes against the REAL server: the e-ticket
 * receipt and the hotel and transfer vouchers (terminal text, and PDFs whose text is read back with unpdf),
 * human views instead of record dumps, `hotel|transfer|bookings list` with kind-named ids, the hotel
 * cancel's fee quote, and `book --offer` learning the offer's requirements and currency.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { documentedAdult, inDays, loginDir, runJson, ticketedFlight } from './helpers/flow.ts';

const url = inject('serverUrl');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: url, NO_COLOR: '1' };
const SLOW = 180_000;

let login: Promise<string> | undefined;
const agentDir = () => {
  if (!agent) throw new Error('the sandbox agent was not seeded');
  login ??= loginDir(env, agent);
  return login;
};

async function pdfText(file: string): Promise<string> {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  // pdf.js splits lines and table cells at will: compare on single spaces.
  return text.replace(/\s+/g, ' ');
}

describe.skipIf(!url)('documents and views (process)', () => {
  it(
    'ticket issue prints the tickets; ticket document is a receipt; --pdf writes it as a PDF',
    async () => {
      const dir = await agentDir();
      const flight = await ticketedFlight(env, dir, 'amadeus', { days: 45, reference: `doc-${Date.now()}` });
      const id = String(flight.bookingId);

      const json = await runJson<{ pnr: string; tickets: { ticket_number: string }[] }>(
        ['ticket', 'document', id],
        { env, configDir: dir },
      );
      expect(json.code, json.stderr).toBe(0);
      expect(json.doc.pnr).toBe(flight.pnr);
      const ticketNumber = json.doc.tickets[0]?.ticket_number ?? '';
      expect(ticketNumber).not.toBe('');

      const text = await runCli(['ticket', 'document', flight.pnr], { env, configDir: dir });
      expect(text.code, text.stderr).toBe(0);
      for (const part of [
        'E-ticket receipt and itinerary',
        `Booking reference (PNR)  ${flight.pnr}`,
        ticketNumber,
        'LOVELACE/ADA',
        'Itinerary (local times at each airport)',
        'Coupons',
        'Baggage allowance',
        'Taxes and fees',
      ])
        expect(text.stdout).toContain(part);
      // Local times as people read them, with the airport's name and zone: not an ISO string.
      // (At 100 columns the itinerary's cells wrap: name and time are checked apart.)
      expect(text.stdout).toMatch(/LHR [A-Z][a-z]+/);
      expect(text.stdout).toMatch(/\w{3}, \d{2} \w{3} \d{4},/);
      expect(text.stdout).toMatch(/^.*\s\d{2}:\d{2}(\s|$)/m);
      expect(text.stdout).toContain('Europe/London');
      expect(text.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      expect(text.stdout).not.toContain('amount_minor');
      // The card that was charged, not the airline's CASH; the fare built up to the total; the agency.
      expect(text.stdout).toMatch(
        /Form of payment\s+Payment card via Stripe \(\S+\): [A-Z]{3} [\d,.]+ charged/,
      );
      expect(text.stdout).not.toMatch(/Form of payment\s+CASH/);
      expect(text.stdout).toMatch(
        /Fare calculation\s+[A-Z]{3} [\d,.]+ fare \+ [A-Z]{3} [\d,.]+ taxes and fees = [A-Z]{3} [\d,.]+/,
      );
      expect(text.stdout).toMatch(/Travel agency\s+\S.*@/);
      // Every line fits 100 columns (no terminal: the default width).
      for (const line of text.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);

      const file = join(dir, `e-ticket-${flight.pnr}.pdf`);
      const pdf = await runCli(['ticket', 'document', id, '--pdf', file], { env, configDir: dir });
      expect(pdf.code, pdf.stderr).toBe(0);
      expect(pdf.stdout.trim()).toBe(file);
      const extracted = await pdfText(file);
      for (const part of [
        'E-ticket receipt and itinerary',
        flight.pnr,
        ticketNumber,
        'LOVELACE/ADA',
        'LHR',
        'DXB',
        'Baggage allowance',
        'Total',
      ])
        expect(extracted).toContain(part);

      // A booking without tickets has no receipt: exit 5, pointing at ticket issue.
      const unticketed = await runCli(['ticket', 'document', '99999999'], { env, configDir: dir });
      expect(unticketed.code).toBe(4);
    },
    SLOW,
  );

  it(
    'hotel: book and show print views, voucher --pdf, lists name the kind, cancel quotes the fee',
    async () => {
      const dir = await agentDir();
      const search = await runJson<{
        offers: { supplier: string; rate_type: string; rate_key: string; rooms: number; adults: number }[];
      }>(
        [
          'search',
          'hotel',
          '--destination',
          'DXB',
          '--check-in',
          inDays(70),
          '--check-out',
          inDays(72),
          '--adults',
          '1',
        ],
        {
          env,
          configDir: dir,
        },
      );
      expect(search.code, search.stderr).toBe(0);
      const rate = search.doc.offers.find(
        (o) => o.supplier === 'hotelbeds' && o.rate_type === 'BOOKABLE' && o.adults === 1 && o.rooms === 1,
      );
      expect(rate, 'a one-adult bookable Hotelbeds rate').toBeDefined();
      if (!rate) return;
      const guests = join(dir, 'doc-guests.json');
      writeFileSync(
        guests,
        JSON.stringify([{ room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' }]),
      );
      const booked = await runCli(
        [
          'hotel',
          'book',
          '--rate-key',
          rate.rate_key,
          '--provider',
          'hotelbeds',
          '--guests',
          guests,
          '--contact-email',
          'ada@example.org',
          '--contact-phone',
          '+447700900123',
        ],
        { env, configDir: dir },
      );
      expect(booked.code, booked.stderr).toBe(0);
      const id = Number(/^hotel (\d+) {2}confirmed/m.exec(booked.stdout)?.[1]);
      expect(id, booked.stdout).toBeGreaterThan(0);
      expect(booked.stdout).toContain('room 1  Ada Lovelace');
      expect(booked.stdout).not.toContain('amount_minor');
      expect(booked.stdout).not.toContain('rate_key');

      const show = await runCli(['hotel', 'show', String(id)], { env, configDir: dir });
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toMatch(new RegExp(`^hotel ${id} {2}confirmed`));
      expect(show.stdout).not.toContain('amount_minor');
      const record = await runJson<{
        supplier_booking_ref: string;
        hotel: { name: string };
        total: { amount_minor: number; currency: string };
        cancellation_policies: { from: string; fee: { amount_minor: number } }[];
      }>(['hotel', 'show', String(id)], { env, configDir: dir });
      const reference = record.doc.supplier_booking_ref;
      expect(reference).toBeTruthy();

      const file = join(dir, `hotel-${id}.pdf`);
      const voucher = await runCli(['hotel', 'voucher', String(id), '--pdf', file], { env, configDir: dir });
      expect(voucher.code, voucher.stderr).toBe(0);
      const extracted = await pdfText(file);
      for (const part of [
        'Hotel voucher',
        `hotel ${id}`,
        reference,
        record.doc.hotel.name,
        'Ada Lovelace',
        'Check-in',
      ])
        expect(extracted).toContain(part);
      const text = await runCli(['hotel', 'voucher', String(id)], { env, configDir: dir });
      expect(text.stdout).toContain('Cancellation policy');

      // Lists: the id always with its kind.
      const list = await runCli(['hotel', 'list', '--status', 'confirmed', '--limit', '100'], {
        env,
        configDir: dir,
      });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/^booking\s+status\s+reference\s+what\s+when\s+total\s+created/m);
      expect(list.stdout).toMatch(new RegExp(`^hotel ${id}\\s+confirmed\\s+${reference}`, 'm'));
      expect(list.stderr).toMatch(/page 1 of \d+ \(\d+ of your company's bookings\)/);
      const all = await runJson<{ items: { kind: string; booking_id: number }[]; total: number }>(
        ['bookings', 'list', '--limit', '100'],
        { env, configDir: dir },
      );
      expect(all.code, all.stderr).toBe(0);
      expect(all.doc.items).toContainEqual(expect.objectContaining({ kind: 'hotel', booking_id: id }));
      expect(new Set(all.doc.items.map((i) => i.kind))).toContain('flight');
      // Paging: page 2 of size 1 is the second row of the same order.
      const first2 = await runJson<{ items: { kind: string; booking_id: number }[] }>(
        ['bookings', 'list', '--limit', '2'],
        { env, configDir: dir },
      );
      const page2 = await runJson<{ items: { kind: string; booking_id: number }[]; page: number }>(
        ['bookings', 'list', '--limit', '1', '--page', '2'],
        { env, configDir: dir },
      );
      expect(page2.doc.page).toBe(2);
      expect(page2.doc.items).toEqual([first2.doc.items[1]]);
      const badStatus = await runCli(['bookings', 'list', '--status', 'nonsense'], { env, configDir: dir });
      expect(badStatus.code).toBe(2);

      // Cancel: the quote first (the rate's policy now), nothing changed; then the guard, then the cancel.
      const quote = await runJson<{
        status: string;
        cancelled: boolean;
        quote: { fee: { amount_minor: number }; refund: { amount_minor: number }; basis: string };
      }>(['hotel', 'cancel', String(id)], { env, configDir: dir });
      expect(quote.code, quote.stderr).toBe(0);
      expect(quote.doc).toMatchObject({ status: 'confirmed', cancelled: false });
      expect(quote.doc.quote.fee.amount_minor + quote.doc.quote.refund.amount_minor).toBe(
        record.doc.total.amount_minor,
      );
      const human = await runCli(['hotel', 'cancel', String(id)], { env, configDir: dir });
      expect(human.stdout).toMatch(
        new RegExp(`Cancelling hotel ${id} now: fee [A-Z]{3} \\d+\\.\\d\\d, refund`),
      );
      expect(human.stdout).toContain("(the provider's cancellation simulation; nothing was cancelled)");
      const done = await runCli(['hotel', 'cancel', String(id), '--confirm', '--yes'], {
        env,
        configDir: dir,
      });
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain(`hotel ${id} cancelled`);
      expect(done.stdout).toMatch(/refund [A-Z]{3} \d+\.\d\d/);
      const after = await runJson<{ status: string; cancellation_fee: { amount_minor: number } }>(
        ['hotel', 'show', String(id)],
        { env, configDir: dir },
      );
      expect(after.doc.status).toBe('cancelled');
      // The fee the provider's simulation quoted is the fee the cancellation kept.
      expect(after.doc.cancellation_fee.amount_minor).toBe(quote.doc.quote.fee.amount_minor);
    },
    SLOW,
  );

  it(
    'transfer: book prints a view, voucher --pdf, list names the kind',
    async () => {
      const dir = await agentDir();
      const search = await runJson<{ offers: { supplier: string; quote_id: string }[] }>(
        [
          'search',
          'transport',
          '--pickup',
          'DXB',
          '--dropoff',
          'Dubai Marina',
          '--at',
          `${inDays(70)}T10:15`,
        ],
        { env, configDir: dir },
      );
      expect(search.code, search.stderr).toBe(0);
      const offer = search.doc.offers.find((o) => o.supplier === 'hotelbeds_transfers');
      if (!offer) throw new Error(`no hotelbeds_transfers quote: ${search.stderr}`);
      const pax = join(dir, 'doc-transfer-pax.json');
      writeFileSync(pax, JSON.stringify([{ first_name: 'Ada', last_name: 'Lovelace' }]));
      const booked = await runCli(
        [
          'transfer',
          'book',
          '--quote',
          offer.quote_id,
          '--provider',
          offer.supplier,
          '--passengers',
          pax,
          '--contact-email',
          'ada@example.org',
          '--contact-phone',
          '+447700900123',
          '--flight',
          'EK2',
        ],
        { env, configDir: dir },
      );
      expect(booked.code, booked.stderr).toBe(0);
      const id = Number(/^transfer (\d+) {2}confirmed/m.exec(booked.stdout)?.[1]);
      expect(id, booked.stdout).toBeGreaterThan(0);
      expect(booked.stdout).toContain('DXB -> Dubai Marina');
      expect(booked.stdout).toContain('flight EK2');
      expect(booked.stdout).not.toContain(offer.quote_id);

      const file = join(dir, `transfer-${id}.pdf`);
      const voucher = await runCli(['transfer', 'voucher', String(id), '--pdf', file], {
        env,
        configDir: dir,
      });
      expect(voucher.code, voucher.stderr).toBe(0);
      const extracted = await pdfText(file);
      for (const part of ['Transfer voucher', `transfer ${id}`, 'Dubai Marina', 'EK2', 'Ada Lovelace'])
        expect(extracted).toContain(part);

      const list = await runCli(['transfer', 'list'], { env, configDir: dir });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^transfer ${id}\\s+confirmed`, 'm'));
      expect(list.stdout).not.toMatch(/^hotel /m);

      const cancel = await runCli(['transfer', 'cancel', String(id)], { env, configDir: dir });
      expect(cancel.stdout).toContain(
        `Cancelling transfer ${id} now: fee unknown until the provider answers`,
      );
    },
    SLOW,
  );

  it(
    'book --offer learns the offer: no --currency needed, and a file without the required passport is refused before booking',
    async () => {
      const dir = await agentDir();
      const search = await runJson<{
        offers: {
          offer_id: string;
          supplier: string;
          price: { currency: string };
          booking_requirements: { passengers: { identity_document: boolean }[] };
        }[];
      }>(
        // In EUR: neither the profile's currency nor USD, so only the offer itself can say it.
        [
          'search',
          'flight',
          '--from',
          'LHR',
          '--to',
          'DXB',
          '--date',
          inDays(47),
          '--supplier',
          'duffel',
          '--currency',
          'EUR',
        ],
        {
          env,
          configDir: dir,
        },
      );
      expect(search.code, search.stderr).toBe(0);
      const offer = search.doc.offers.find(
        (o) => o.supplier === 'duffel' && o.booking_requirements.passengers.some((p) => p.identity_document),
      );
      if (!offer) throw new Error('no Duffel offer that requires documents');

      const bare = join(dir, 'pax-bare.json');
      const { document: _doc, nationality: _n, ...withoutDocument } = documentedAdult;
      writeFileSync(bare, JSON.stringify([withoutDocument]));
      const refused = await runCli(
        [
          'book',
          '--offer',
          offer.offer_id,
          '--passengers',
          bare,
          '--contact',
          'ada@example.org,+447700900123',
        ],
        { env, configDir: dir },
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('passenger 1: document.type, document.number, document.expiry');
      expect(refused.stderr).toContain('passport');

      const pax = join(dir, 'pax-documented.json');
      writeFileSync(pax, JSON.stringify([documentedAdult]));
      const booked = await runJson<{ outcome: string; booking: { pricing: { currency: string } } }>(
        [
          'book',
          '--offer',
          offer.offer_id,
          '--passengers',
          pax,
          '--contact',
          'ada@example.org,+447700900123',
        ],
        { env, configDir: dir },
      );
      expect(booked.code, booked.stderr).toBe(0);
      expect(booked.doc.outcome).toBe('confirmed');
      expect(offer.price.currency).toBe('EUR');
      expect(booked.doc.booking.pricing.currency).toBe('EUR');
    },
    SLOW,
  );
});
