/** Asynchronous ticketing (Mystifly) in words with the next step, never raw codes. */
import { describe, expect, it, vi } from 'vitest';
import { runTicketIssue, runTicketStatus } from '../src/commands/ticket.ts';
import { fakeWorld } from './helpers/fakes.ts';

describe('asynchronous ticketing', () => {
  it('ticket issue: not issued yet is explained, with the command to run next', async () => {
    const issue = vi.fn(async () => ({
      data: { booking_id: 3, status: 'paid', issued: false, raw_status: '3', tickets: [], payment: null },
      idempotencyKey: 'k',
      requestId: 'r',
    }));
    const { ctx, io } = fakeWorld({ sdk: { tickets: { issue } } as never });
    await runTicketIssue('3', { capture: true }, ctx);
    const text = io.stdout.join('\n');
    expect(text).toContain('the supplier issues these tickets asynchronously and has not finished yet');
    expect(text).toContain('next: travel ticket status 3');
    expect(text).not.toMatch(/not issued yet \(3\)/);
  });

  it('ticket status: the supplier status in words, and the next step', async () => {
    const status = vi.fn(async () => ({
      booking_id: 3,
      issued: false,
      raw_status: '3',
      raw_status_text: 'TktInProcess',
    }));
    const { ctx, io } = fakeWorld({ sdk: { tickets: { status } } as never });
    await runTicketStatus('3', ctx);
    const text = io.stdout.join('\n');
    expect(text).toContain('(ticketing in process)');
    expect(text).toContain('next: travel ticket status 3');
    expect(text).not.toContain('raw_status');
  });

  it('ticket status once issued points at the receipt; --json keeps the raw fields', async () => {
    const status = vi.fn(async () => ({
      booking_id: 3,
      issued: true,
      raw_status: '6',
      raw_status_text: 'Ticketed',
    }));
    const human = fakeWorld({ sdk: { tickets: { status } } as never });
    await runTicketStatus('3', human.ctx);
    expect(human.io.stdout).toEqual([
      'booking 3: tickets issued (ticketed)',
      'receipt: travel ticket document 3 [--pdf FILE]',
    ]);
    const json = fakeWorld({ sdk: { tickets: { status } } as never, globals: { json: true } });
    await runTicketStatus('3', json.ctx);
    expect(JSON.parse(json.io.stdout.join(''))).toMatchObject({
      raw_status: '6',
      raw_status_text: 'Ticketed',
    });
  });
});
