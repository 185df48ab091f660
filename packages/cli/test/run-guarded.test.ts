/** The guard on irreversible actions: quote without --confirm, type the PNR, or --yes. */
import { describe, expect, it, vi } from 'vitest';
import { runBookingCancel } from '../src/commands/booking.ts';
import { runMoneyAction } from '../src/commands/pay.ts';
import { runTicketAction } from '../src/commands/ticket.ts';
import { booking } from './helpers/data.ts';
import { fakeWorld } from './helpers/fakes.ts';

const quote = (confirmed: boolean) => ({
  booking_id: 42,
  action: 'void',
  confirmed,
  permitted: true,
  determination: 'within_void_window',
  message: 'Void permitted',
  refund: { currency: 'GBP', amount_minor: 45_000 },
  booking_status: confirmed ? 'cancelled' : 'ticketed',
});

describe('ticket void', () => {
  it.each([
    ['no --confirm: quote only', { confirm: false, yes: false }, [], [{}]],
    ['--confirm --yes: done', { confirm: true, yes: true }, [], [{ confirm: true }]],
    [
      '--confirm on a terminal: quote, typed PNR, done',
      { confirm: true, yes: false },
      ['x7kq2m'],
      [{}, { confirm: true }],
    ],
  ])('%s', async (_name, guard, answers, queries) => {
    const action = vi.fn(async (_id: string, _k: string, q: { confirm?: boolean }) =>
      quote(Boolean(q.confirm)),
    );
    const { ctx } = fakeWorld({
      sdk: { tickets: { action } } as never,
      interactive: answers.length > 0,
      answers,
    });
    await runTicketAction('X7KQ2M', 'void', guard, undefined, ctx);
    expect(action.mock.calls.map((c) => c[2])).toEqual(queries);
  });

  it('a wrong PNR changes nothing', async () => {
    const action = vi.fn(async () => quote(true));
    const { ctx } = fakeWorld({
      sdk: { tickets: { action } } as never,
      interactive: true,
      answers: ['ABC123'],
    });
    await expect(
      runTicketAction('X7KQ2M', 'void', { confirm: true, yes: false }, undefined, ctx),
    ).rejects.toThrow('nothing changed');
    expect(action.mock.calls.map((c) => (c as unknown[])[2])).toEqual([{}]);
  });

  it('--confirm shows the refund and the fee before asking for the PNR', async () => {
    const action = vi.fn(async (_id: string, _k: string, q: { confirm?: boolean }) => ({
      ...quote(Boolean(q.confirm)),
      fee: { currency: 'GBP', amount_minor: 1_500 },
    }));
    const { ctx, io } = fakeWorld({ sdk: { tickets: { action } } as never, interactive: true });
    let onScreen = '';
    ctx.prompter.input = async () => {
      onScreen = io.stderr.join('\n');
      return 'X7KQ2M';
    };
    await runTicketAction('X7KQ2M', 'void', { confirm: true, yes: false }, undefined, ctx);
    expect(onScreen).toContain('refund GBP 450.00');
    expect(onScreen).toContain('fee GBP 15.00');
  });

  it('--confirm stops before the PNR when the quote says it is not permitted', async () => {
    const action = vi.fn(async () => ({
      ...quote(false),
      permitted: false,
      determination: 'void_window_expired',
    }));
    const { ctx } = fakeWorld({ sdk: { tickets: { action } } as never, interactive: true });
    await expect(
      runTicketAction('X7KQ2M', 'void', { confirm: true, yes: false }, undefined, ctx),
    ).rejects.toThrow('not permitted (void_window_expired)');
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('reissue only ever quotes, even with --confirm', async () => {
    const action = vi.fn(async () => quote(false));
    const { ctx } = fakeWorld({ sdk: { tickets: { action } } as never });
    await runTicketAction('X7KQ2M', 'reissue', { confirm: true, yes: true }, undefined, ctx);
    expect(action).toHaveBeenCalledWith('X7KQ2M', 'reissue', {});
  });
});

describe('pay capture and booking cancel', () => {
  it('capture without --confirm shows the payments and moves no money', async () => {
    const capture = vi.fn();
    const history = vi.fn(async () => ({ booking_id: 42, payments: [], transactions: [] }));
    const { ctx, io } = fakeWorld({ sdk: { payments: { capture, history } } as never });
    await runMoneyAction(
      '42',
      'capture',
      { guard: { confirm: false, yes: false }, amountMinor: undefined, reason: undefined },
      ctx,
    );
    expect(capture).not.toHaveBeenCalled();
    expect(io.stderr.join('\n')).toContain('Nothing changed');
  });

  it('refund with --confirm on a terminal asks for the PNR read from the booking', async () => {
    const payment = {
      payment_id: 9,
      booking_id: 42,
      state: 'PARTIALLY_REFUNDED',
      amount_minor: 41_000,
      captured_minor: 41_000,
      refunded_minor: 500,
      currency: 'GBP',
      provider: 'stripe',
      provider_payment_ref: 'pi_1',
      transactions: [
        { transaction_id: 3, type: 'refund', status: 'succeeded', amount_minor: 500, currency: 'GBP' },
      ],
      created_at: '2026-11-24T10:00:00Z',
      updated_at: '2026-11-24T10:00:00Z',
    };
    const refund = vi.fn(async () => ({ data: payment, idempotencyKey: 'k', requestId: 'r' }));
    const get = vi.fn(async () => booking('paid'));
    const { ctx, deps, io } = fakeWorld({
      sdk: { payments: { refund }, bookings: { get } } as never,
      interactive: true,
      answers: ['X7KQ2M'],
    });
    await runMoneyAction(
      '42',
      'refund',
      { guard: { confirm: true, yes: false }, amountMinor: 500, reason: 'goodwill' },
      ctx,
    );
    expect((deps.prompter as unknown as { asked: string[] }).asked[0]).toContain('type X7KQ2M');
    expect(refund).toHaveBeenCalledWith('42', { amount_minor: 500, reason: 'goodwill' });
    // A view of the payment, not its record.
    expect(io.stdout).toEqual([
      'refund done on booking 42',
      'payment 9 PARTIALLY_REFUNDED  amount GBP 410.00  captured GBP 410.00  refunded GBP 5.00',
      'last transaction 3: refund GBP 5.00 succeeded',
    ]);
  });

  it('booking cancel --confirm --yes cancels', async () => {
    const cancel = vi.fn(async () => ({ booking_id: 42, status: 'cancelled' }));
    const { ctx } = fakeWorld({ sdk: { bookings: { cancel } } as never });
    await runBookingCancel('X7KQ2M', { confirm: true, yes: true }, ctx);
    expect(cancel).toHaveBeenCalledWith('X7KQ2M');
  });
});
