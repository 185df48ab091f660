/** book: flag-driven and interactive, the idempotency journal, and the 502 pending outcome. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type BookOptions, runBook } from '../src/commands/book.ts';
import { CliError } from '../src/errors.ts';
import { ExitCode } from '../src/exit-codes.ts';
import { booking, offer } from './helpers/data.ts';
import { fakeWorld } from './helpers/fakes.ts';

const dir = mkdtempSync(join(tmpdir(), 'travel-book-'));
const paxFile = join(dir, 'pax.json');
writeFileSync(
  paxFile,
  JSON.stringify([
    { type: 'ADT', first_name: 'Ada', last_name: 'Lovelace', gender: 'F', date_of_birth: '1985-12-10' },
  ]),
);

const flags = (over: Partial<BookOptions> = {}): BookOptions => ({
  offerId: 'off_1',
  currency: 'GBP',
  passengersFile: paxFile,
  contactEmail: 'ada@example.org',
  contactPhone: '+447700900123',
  paymentMode: 'PNR_FIRST',
  reference: undefined,
  idempotencyKey: undefined,
  fresh: false,
  yes: false,
  waitSeconds: 30,
  ...over,
});

const confirmed = (key: string) => ({
  outcome: 'confirmed',
  booking_id: 42,
  booking: booking('confirmed'),
  idempotencyKey: key,
  requestId: 'r',
});

describe('runBook', () => {
  it('flag-driven: books, prints the PNR, journals the key', async () => {
    const create = vi.fn(async (_body: unknown, o: { idempotencyKey: string }) =>
      confirmed(o.idempotencyKey),
    );
    const { ctx, io } = fakeWorld({ sdk: { bookings: { create } } as never, globals: { json: true } });
    await runBook(flags({ reference: 'ACME-1' }), ctx);
    expect(create.mock.calls[0]?.[0]).toMatchObject({
      offer_id: 'off_1',
      client_ref: 'ACME-1',
      contact: { email: 'ada@example.org' },
    });
    const doc = JSON.parse(io.stdout.join(''));
    expect(doc).toMatchObject({ outcome: 'confirmed', pnr: 'X7KQ2M', key_source: 'new' });
  });

  it('a re-run replays the journalled key; --new and another reference do not', async () => {
    const create = vi.fn(async (_body: unknown, o: { idempotencyKey: string }) =>
      confirmed(o.idempotencyKey),
    );
    const { ctx } = fakeWorld({ sdk: { bookings: { create } } as never });
    await runBook(flags(), ctx);
    await runBook(flags(), ctx);
    await runBook(flags({ fresh: true }), ctx);
    await runBook(flags({ reference: 'other' }), ctx);
    await runBook(flags({ idempotencyKey: 'ci-job-7' }), ctx);
    const keys = create.mock.calls.map((c) => c[1].idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(keys[4]).toBe('ci-job-7');
  });

  it('a corrected re-run after a refusal sends a fresh key, and a refused key is forgotten', async () => {
    const { ValidationError } = await import('@travel/sdk');
    let calls = 0;
    const create = vi.fn(async (_body: unknown, o: { idempotencyKey: string }) => {
      calls++;
      if (calls === 1)
        throw new ValidationError({
          status: 400,
          code: 'invalid_passenger',
          detail: 'the travel document expires before the journey ends',
        });
      return confirmed(o.idempotencyKey);
    });
    const { ctx, io } = fakeWorld({ sdk: { bookings: { create } } as never });
    const doc = { type: 'passport', number: 'P1234567', expiry: '2026-06-02', issuing_country: 'GB' };
    const file = join(dir, 'pax-doc.json');
    const write = (expiry: string) =>
      writeFileSync(
        file,
        JSON.stringify([
          {
            first_name: 'Ada',
            last_name: 'Lovelace',
            gender: 'F',
            date_of_birth: '1985-12-10',
            document: { ...doc, expiry },
          },
        ]),
      );
    write('2026-06-02');
    await expect(runBook(flags({ passengersFile: file }), ctx)).rejects.toThrow();
    write('2030-01-01');
    await runBook(flags({ passengersFile: file }), ctx);
    const keys = create.mock.calls.map((c) => c[1].idempotencyKey);
    expect(keys[1]).not.toBe(keys[0]);
    expect(io.stderr.join('\n')).not.toContain('Re-sending');
    // The same (still wrong) request again also takes a fresh key: the refused one was forgotten.
    write('2026-06-02');
    calls = 0;
    await expect(runBook(flags({ passengersFile: file }), ctx)).rejects.toThrow();
    expect(create.mock.calls[2]?.[1].idempotencyKey).not.toBe(keys[0]);
  });

  it('a 502 is polled with a visible line until the supplier confirms', async () => {
    const create = vi.fn(async (_b: unknown, _o: unknown) => ({
      outcome: 'pending',
      booking_id: 42,
      booking: undefined,
      idempotencyKey: 'k',
      requestId: 'r',
    }));
    const get = vi
      .fn()
      .mockResolvedValueOnce(booking('pending_pnr'))
      .mockResolvedValueOnce(booking('confirmed'));
    const { ctx, io } = fakeWorld({ sdk: { bookings: { create, get } } as never });
    await runBook(flags(), ctx);
    expect(create.mock.calls[0]?.[1]).toMatchObject({ pending: { deadlineMs: 0 } });
    expect(get).toHaveBeenCalledTimes(2);
    expect(io.boards[0]?.booking).toEqual({ text: 'confirmed · PNR X7KQ2M', state: 'done' });
    expect(io.stdout[0]).toContain('PNR X7KQ2M');
  });

  it('still pending at the deadline: exit 6 with how to check later', async () => {
    const create = vi.fn(async () => ({
      outcome: 'pending',
      booking_id: 42,
      idempotencyKey: 'k',
      requestId: 'r',
    }));
    const get = vi.fn(async () => booking('pending_pnr'));
    const { ctx } = fakeWorld({ sdk: { bookings: { create, get } } as never });
    const error = await runBook(flags({ waitSeconds: 5 }), ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.supplierPending);
    expect((error as CliError).message).toContain('travel booking show 42');
  });

  it('a rejected booking exits 1', async () => {
    const create = vi.fn(async () => ({
      outcome: 'failed',
      booking_id: 42,
      booking: booking('pnr_failed'),
      idempotencyKey: 'k',
      requestId: 'r',
    }));
    const { ctx } = fakeWorld({ sdk: { bookings: { create } } as never });
    const error = (await runBook(flags(), ctx).catch((e: unknown) => e)) as CliError;
    expect(error.exitCode).toBe(ExitCode.failed);
  });

  it('interactive: saved travellers, contact, payment mode, price confirmation', async () => {
    const saved = {
      traveler_id: 1,
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1985-12-10',
      gender: 'F',
      nationality: 'GB',
      email: 'ada@example.org',
      phone: '+447700900123',
      nickname: null,
    };
    const GET = vi.fn(async () => ({
      response: new Response(null, { status: 200 }),
      data: { items: [saved], total: 1 },
    }));
    const revalidate = vi.fn(async () => ({
      available: true,
      price_changed: false,
      previous_total_minor: 41_000,
      offer: offer('off_a', 41_000),
    }));
    const create = vi.fn(async (_b: unknown, o: { idempotencyKey: string }) => confirmed(o.idempotencyKey));
    const answers = [[saved], 'ada@example.org', '+447700900123', 'PNR_FIRST', true];
    const { ctx, deps } = fakeWorld({
      sdk: { raw: { GET }, bookings: { create, revalidate } } as never,
      interactive: true,
      answers,
    });
    await runBook(
      {
        ...flags({
          passengersFile: undefined,
          contactEmail: undefined,
          contactPhone: undefined,
          paymentMode: undefined,
        }),
        offer: offer('off_a', 41_000),
        offerId: 'off_a',
      },
      ctx,
    );
    expect((deps.prompter as unknown as { asked: string[] }).asked).toEqual([
      'Saved travellers (space to pick, enter to go on)',
      'Contact email',
      'Contact phone',
      'Payment mode',
      'Book for GBP 410.00?',
    ]);
    expect(create.mock.calls[0]?.[0]).toMatchObject({
      passengers: [{ type: 'ADT', first_name: 'Ada', last_name: 'Lovelace' }],
    });
  });

  it('interactive: saying no to the price books nothing', async () => {
    const revalidate = vi.fn(async () => ({
      available: true,
      price_changed: true,
      previous_total_minor: 40_000,
      offer: offer('off_a', 41_000),
    }));
    const create = vi.fn();
    const { ctx, io } = fakeWorld({
      sdk: { bookings: { create, revalidate } } as never,
      interactive: true,
      answers: [false],
    });
    await expect(runBook(flags(), ctx)).rejects.toThrow('not booked');
    expect(create).not.toHaveBeenCalled();
    expect(io.stderr.join('\n')).toContain('The price changed from GBP 400.00 to GBP 410.00');
  });
});

describe('payment modes', () => {
  it('are offered with a one-line explanation each', async () => {
    const { paymentModeChoices, PAYMENT_MODES } = await import('../src/commands/book.ts');
    const choices = paymentModeChoices();
    expect(choices.map((c) => c.value)).toEqual([...PAYMENT_MODES]);
    for (const c of choices) expect(c.name).toMatch(new RegExp(`^${c.value} +\\S.{20,}`));
    expect(choices[0]?.name).toContain('then pay');
  });
});
