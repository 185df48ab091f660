/**
 * A confirmed ticket void through the BUILT binary against the REAL server (global setup): the void gives
 * the money back in the same call. The command says so ("money back: ... refunded to the card"), and
 * `travel pay history` shows the refund the payment provider (the Stripe emulator, inside the sandbox
 * server) made: its `re_` reference, the captured total, the payment REFUNDED. `travel booking timeline`
 * then tells the booking's story: each supplier and payment call in order, nothing secret in it.
 */
import { describe, expect, inject, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { loginDir, runJson, ticketedFlight } from './helpers/flow.ts';

const url = inject('serverUrl');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: url, NO_COLOR: '1' };

interface Timeline {
  entries: { kind: string; supplier_call: { operation: string } | null }[];
}

interface History {
  payments: { state: string; captured_minor: number; refunded_minor: number; currency: string }[];
  transactions: { type: string; status: string; amount_minor: number; provider_ref: string | null }[];
}

describe.skipIf(!url)('travel ticket void --confirm gives the money back', () => {
  it('the void answers where the money went; pay history shows the provider refund', async () => {
    if (!agent) throw new Error('the sandbox agent was not seeded');
    const dir = await loginDir(env, agent);
    const f = await ticketedFlight(env, dir, 'amadeus', { days: 45, reference: `void-refund-${Date.now()}` });
    const id = String(f.bookingId);
    const before = await runJson<History>(['pay', 'history', id], { env, configDir: dir });
    expect(before.code, before.stderr).toBe(0);
    const captured = before.doc.payments.at(-1);
    expect(captured?.state).toBe('CAPTURED');
    const total = captured?.captured_minor as number;

    const voided = await runCli(['ticket', 'void', id, '--confirm', '--yes'], { env, configDir: dir });
    expect(voided.code, voided.stderr).toBe(0);
    expect(voided.stdout).toMatch(/money back: .+ refunded to the card/);
    expect(voided.stdout).toContain('booking status refunded');

    const after = await runJson<History>(['pay', 'history', id], { env, configDir: dir });
    expect(after.code, after.stderr).toBe(0);
    expect(after.doc.payments.at(-1)).toMatchObject({ state: 'REFUNDED', refunded_minor: total });
    const refund = after.doc.transactions.filter((t) => t.type === 'refund');
    expect(refund).toHaveLength(1);
    expect(refund[0]).toMatchObject({ status: 'succeeded', amount_minor: total });
    expect(refund[0]?.provider_ref).toMatch(/^re_/);

    // The booking's story (issue 32): every supplier and payment call in order, the money, nothing secret.
    const story = await runCli(['booking', 'timeline', f.pnr], { env, configDir: dir });
    expect(story.code, story.stderr).toBe(0);
    const order = ['amadeus createOrder ok', 'stripe authorize ok', 'stripe capture ok', 'stripe refund ok'];
    const at = order.map((s) => story.stdout.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      story.stdout,
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(story.stdout).toMatch(/refund .+ succeeded/);
    const full = await runJson<Timeline>(['booking', 'timeline', id], { env, configDir: dir });
    expect(full.code, full.stderr).toBe(0);
    const calls = full.doc.entries.filter((e) => e.kind === 'supplier_call');
    expect(calls.map((e) => e.supplier_call?.operation)).toContain('ticketAction');
    const excerpts = await runCli(['booking', 'timeline', id, '--excerpts'], { env, configDir: dir });
    expect(excerpts.stdout).toContain('sent ');
    expect(excerpts.stdout).not.toContain('tok_sandbox_ok');
  }, 180_000);
});
