/** The pure parts of documents and booking requirements: times as written, policy fees, missing fields. */
import { describe, expect, it } from 'vitest';
import { quoteHotelCancellation } from '../src/commands/hotel.ts';
import { documentLines, localDateTime } from '../src/documents/model.ts';
import { hotelVoucher, policyFeeAt, policyLines } from '../src/documents/vouchers.ts';
import {
  checkRequirements,
  missingFields,
  type Requirements,
  validatePassengers,
} from '../src/passengers.ts';
import { hotelBooking } from './helpers/data.ts';

describe('local times', () => {
  it('formats the local time as written, never shifted by the machine zone', () => {
    expect(localDateTime('2026-12-20T09:05')).toBe('Sun, 20 Dec 2026, 09:05');
    expect(localDateTime('2026-12-20')).toBe('Sun, 20 Dec 2026');
    expect(localDateTime(null)).toBe('-');
  });
});

describe('hotel cancellation policy', () => {
  const total = { currency: 'GBP' as const, amount_minor: 30_000 };
  const policies = [
    { from: '2027-01-30T00:00:00Z', fee: { currency: 'GBP' as const, amount_minor: 15_000 } },
    { from: '2027-02-01T00:00:00Z', fee: { currency: 'GBP' as const, amount_minor: 40_000 } },
  ];

  it('the fee is the last step begun, capped at the total; before the first step it is free', () => {
    expect(policyFeeAt(policies, new Date('2027-01-01T00:00:00Z'), total)).toEqual({
      fee: { currency: 'GBP', amount_minor: 0 },
      refund: { currency: 'GBP', amount_minor: 30_000 },
    });
    expect(policyFeeAt(policies, new Date('2027-01-31T00:00:00Z'), total).fee.amount_minor).toBe(15_000);
    expect(policyFeeAt(policies, new Date('2027-02-03T00:00:00Z'), total)).toEqual({
      fee: { currency: 'GBP', amount_minor: 30_000 },
      refund: { currency: 'GBP', amount_minor: 0 },
    });
  });

  it('says the free period only when there is one', () => {
    expect(policyLines(policies, total, '2026-11-24T10:00:00Z')[0]).toBe(
      'Free cancellation before Sat, 30 Jan 2027, 00:00',
    );
    expect(policyLines(policies, total, '2027-01-30T00:00:00Z')[0]).toMatch(/^From Sat, 30 Jan 2027/);
    expect(policyLines([], total)[0]).toContain('ask before cancelling');
  });

  it('the voucher names the booking with its kind, the stay and the guests', () => {
    const text = documentLines(hotelVoucher(hotelBooking(12))).join('\n');
    expect(text).toContain('Booking             hotel 12');
    expect(text).toContain('Check-in   Tue, 02 Feb 2027');
    expect(text).toMatch(/1\s+Ada Lovelace\s+adult/);
    expect(text).toContain('Total  GBP 300.00');
  });
});

describe('what an offer requires of passengers', () => {
  const requirements: Requirements = {
    passengers: [
      {
        passenger_type: 'ADT',
        identity_document: true,
        document_types: ['passport'],
        date_of_birth: true,
        nationality: false,
        phone: false,
      },
    ],
  };
  const needs = requirements.passengers[0];
  const ada = {
    type: 'ADT' as const,
    first_name: 'Ada',
    last_name: 'Lovelace',
    gender: 'F' as const,
    date_of_birth: '1985-12-10',
  };

  it('names each missing document field, and nothing the offer does not require', () => {
    expect(missingFields(ada, needs)).toEqual([
      'document.type',
      'document.number',
      'document.expiry',
      'document.issuing_country',
    ]);
    const documented = {
      ...ada,
      document: {
        type: 'passport' as const,
        number: 'X1234567',
        expiry: '2034-01-01',
        issuing_country: 'GB',
      },
    };
    expect(missingFields(documented, needs)).toEqual([]);
    // The saved-traveller form (flat doc_* fields) counts as the document.
    const flat = {
      ...ada,
      doc_type: 'passport' as const,
      doc_number: 'X1',
      doc_expiry: '2034-01-01',
      doc_issuing_country: 'GB',
    };
    expect(missingFields(flat, needs)).toEqual([]);
    expect(
      missingFields({ ...documented, document: { ...documented.document, type: 'id_card' } }, needs),
    ).toEqual(['document.type (one of passport)']);
    expect(missingFields(ada, undefined)).toEqual([]);
  });

  it('a passengers file without the document is a usage error naming the passenger and the fields', () => {
    expect(() => checkRequirements([ada], requirements, '--passengers pax.json')).toThrow(
      /--passengers pax\.json: the offer requires passenger 1: document\.type, document\.number, document\.expiry, document\.issuing_country \(an identity document: passport/,
    );
    expect(() => checkRequirements([ada], undefined, 'x')).not.toThrow();
  });
});

describe("a passengers file by the server's rules", () => {
  // The CLI README's pax.json for an offer that requires documents, as written: no "type".
  const readme = [
    {
      first_name: 'Ada',
      last_name: 'Lovelace',
      gender: 'F',
      date_of_birth: '1985-12-10',
      document: { type: 'passport', number: '502135326', expiry: '2034-01-01', issuing_country: 'GB' },
    },
  ];

  it('accepts a passenger without "type" (the server derives it) and a saved traveller by id', () => {
    expect(validatePassengers(readme, 'pax.json')).toHaveLength(1);
    expect(validatePassengers([{ traveler_id: 7 }], 'pax.json')).toHaveLength(1);
  });

  it('still names what is missing, and refuses an unknown type', () => {
    expect(() => validatePassengers([{ first_name: 'Ada' }], 'pax.json')).toThrow(
      'pax.json: passenger 1 lacks "last_name", "gender", "date_of_birth"',
    );
    expect(() => validatePassengers([{ ...readme[0], type: 'ADULT' }], 'pax.json')).toThrow(
      '"type" must be one of ADT, CHD, INF',
    );
  });

  it('checks the requirements of the type the date of birth makes on the travel date', () => {
    const childNeeds: Requirements = {
      passengers: [
        {
          passenger_type: 'CHD',
          identity_document: true,
          document_types: ['passport'],
          date_of_birth: true,
          nationality: false,
          phone: false,
        },
      ],
    };
    const child = { first_name: 'Tim', last_name: 'Lovelace', gender: 'M', date_of_birth: '2020-01-01' };
    expect(() => checkRequirements([child as never], childNeeds, 'pax.json', new Date('2026-12-20'))).toThrow(
      /passenger 1: document\.type/,
    );
  });
});

describe('the hotel cancel quote', () => {
  const answering = (status: number, body: unknown) =>
    ({
      client: () => ({
        raw: {
          GET: async () => ({
            response: new Response(JSON.stringify(body), { status }),
            ...(status < 400 ? { data: body } : { error: body }),
          }),
        },
      }),
      now: () => new Date('2027-01-31T00:00:00Z'),
    }) as never;

  it("is the provider's simulation when it answers", async () => {
    const quote = await quoteHotelCancellation(
      hotelBooking(12),
      answering(200, {
        booking_id: 12,
        status: 'confirmed',
        cancellation_fee: { currency: 'GBP', amount_minor: 12_345 },
        refund: { currency: 'GBP', amount_minor: 17_655 },
        source: 'supplier_simulation',
      }),
    );
    expect(quote.fee).toEqual({ currency: 'GBP', amount_minor: 12_345 });
    expect(quote.basis).toContain("provider's cancellation simulation");
  });

  it('falls back to the rate policy, saying so, when the provider cannot be asked (503)', async () => {
    const quote = await quoteHotelCancellation(
      hotelBooking(12),
      answering(503, { detail: 'down', code: 'supplier_unavailable', request_id: 'r1' }),
    );
    // 2027-01-31 is past the policy step of 2027-01-30 (GBP 150.00).
    expect(quote.fee).toEqual({ currency: 'GBP', amount_minor: 15_000 });
    expect(quote.basis).toContain("the rate's cancellation policy");
    expect(quote.basis).toContain('supplier_unavailable');
  });

  it('a refusal is not papered over: 400 invalid_booking_state is thrown', async () => {
    await expect(
      quoteHotelCancellation(
        hotelBooking(12, { status: 'cancelled' }),
        answering(400, { detail: 'no', code: 'invalid_booking_state', request_id: 'r2' }),
      ),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_booking_state' });
  });
});

describe('small print fits the width', () => {
  it('a note longer than the width wraps at spaces (a receipt naming every time zone of a connection)', () => {
    const note =
      'All times are local at the airport named. Time zones: LHR Europe/London, CDG Europe/Paris, DXB Asia/Dubai.';
    const lines = documentLines({ title: 'Receipt', subtitle: [], sections: [], notes: [note] });
    expect(note.length).toBeGreaterThan(100);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines.slice(lines.indexOf('') + 1).join(' ')).toBe(note);
  });
});
