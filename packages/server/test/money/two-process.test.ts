/**
 * Issue 13: the money races across two real server processes (`node src/main.ts`, A and B) on one fresh
 * PostgreSQL database (TEST_DATABASE_URL; PostgreSQL only, skipped without it). Ten calls with distinct
 * Idempotency-Keys, alternating between A and B, on one booking: what serializes them is the database
 * (the booking row lock, one money op in flight, one live payment), not anything a process holds in
 * memory. The emulators run in this process, shared by both, so the test reads the Stripe emulator's
 * PaymentIntents and refunds beside our tables. Both processes check every response against
 * openapi.json (RESPONSE_VALIDATION=strict, the default of startServer).
 */
import type { MockServers } from '@travel/mock-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startEmulators, startService, supplierUrls } from '../resilience/stack.ts';
import { freshDatabase, type ServerProcess } from '../search/processes.ts';

const url = process.env.TEST_DATABASE_URL;
const N = 10;

interface Answer {
  status: number;
  body: { code?: string; request_id?: string; [k: string]: unknown };
  by: 'A' | 'B';
}

describe.skipIf(!url)(
  'money races across two server processes on one PostgreSQL database (PostgreSQL only: skipped without TEST_DATABASE_URL)',
  () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let sql: pg.Client;
    let mocks: MockServers;
    let a: ServerProcess;
    let b: ServerProcess;
    let onA: Client;
    let onB: Client;

    beforeAll(async () => {
      db = await freshDatabase(url as string);
      mocks = await startEmulators();
      const env = {
        DATABASE_URL: db.url,
        // One signing key for both, so a token from A is good on B.
        JWT_SECRET: 'two-process-money-signing-key-0123456789',
        SANDBOX_SUPPLIER_URLS: supplierUrls(mocks.urls),
      };
      const [sa, sb] = await Promise.allSettled([startService('a', env), startService('b', env)]);
      if (sa.status === 'fulfilled') a = sa.value;
      if (sb.status === 'fulfilled') b = sb.value;
      for (const s of [sa, sb]) if (s.status === 'rejected') throw s.reason;
      expect(a.url).not.toBe(b.url);
      onA = new Client(a.url);
      await onA.login();
      onB = new Client(b.url);
      onB.token = onA.token;
      sql = new pg.Client({ connectionString: db.url });
      await sql.connect();
    });

    afterAll(async () => {
      await sql?.end();
      await Promise.all([a?.stop(), b?.stop()]);
      await mocks?.close();
      await db?.drop();
    });

    /** Ten calls at once with distinct keys, even ones on A and odd ones on B. */
    const race = (call: (c: Client, i: number) => Promise<{ status: number; body: Answer['body'] }>) =>
      Promise.all(
        Array.from({ length: N }, async (_, i): Promise<Answer> => {
          const r = await call(i % 2 === 0 ? onA : onB, i);
          return { status: r.status, body: r.body, by: i % 2 === 0 ? 'A' : 'B' };
        }),
      );
    const show = (rs: Answer[]) => JSON.stringify(rs.map((r) => [r.by, r.status, r.body?.code]));

    /** A confirmed booking made on A; its id, total and currency. */
    const booking = async (tag: string) => {
      const offer = await onA.offer('amadeus');
      const r = await onA.createPnr(offer, `two-proc-${tag}-${Date.now()}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return {
        id: r.body.booking_id as number,
        total: r.body.pricing.total_minor as number,
        currency: offer.price.currency,
      };
    };

    const rows = async <T>(text: string, id: number) => (await sql.query(text, [id])).rows as T[];
    const intents = (id: number) => {
      const st = mocks.states.stripe;
      if (!st) throw new Error('no stripe emulator');
      return [...st.paymentIntents.values()].filter((pi) => pi.metadata.booking_id === String(id));
    };
    const refunds = (piId: string) => {
      const st = mocks.states.stripe;
      if (!st) throw new Error('no stripe emulator');
      return [...st.refunds.values()].filter((r) => r.payment_intent === piId);
    };

    it('authorize, ten at once on A and B: one live authorization in our tables, one PaymentIntent at Stripe', async () => {
      const bk = await booking('auth');
      const rs = await race((c, i) => c.authorize(bk.id, bk.total, bk.currency, `two-auth-${bk.id}-${i}`));
      expect(rs.filter((r) => r.status === 200).length, show(rs)).toBe(1);
      for (const r of rs.filter((x) => x.status !== 200)) {
        expect([400, 409], show(rs)).toContain(r.status);
        const allowed =
          r.status === 409 ? ['operation_in_progress'] : ['invalid_payment_state', 'invalid_booking_state'];
        expect(allowed, show(rs)).toContain(r.body.code);
        expect(typeof r.body.request_id).toBe('string');
      }
      // Both processes answered their five (the losers' refusals came from both).
      expect(new Set(rs.map((r) => r.by))).toEqual(new Set(['A', 'B']));

      const pays = await rows<{ state: string; amount_minor: number; provider_payment_ref: string }>(
        'select state, amount_minor, provider_payment_ref from booking_payments where booking_id = $1',
        bk.id,
      );
      expect(pays.map((p) => [p.state, Number(p.amount_minor)])).toEqual([['AUTHORIZED', bk.total]]);
      const auths = await rows<{ status: string }>(
        "select status from booking_payment_transactions where booking_id = $1 and type = 'authorization'",
        bk.id,
      );
      expect(auths.map((t) => t.status)).toEqual(['succeeded']);
      const ops = await rows<{ status: string }>(
        "select status from booking_money_ops where booking_id = $1 and kind = 'authorize'",
        bk.id,
      );
      expect(ops.map((o) => o.status)).toEqual(['done']);

      const pis = intents(bk.id);
      expect(pis.map((pi) => [pi.id, pi.status, pi.amount])).toEqual([
        [pays[0]?.provider_payment_ref, 'requires_capture', bk.total],
      ]);
    });

    it('partial refunds, ten at once on A and B, three rounds: refunds never exceed the capture, Stripe = database', async () => {
      const bk = await booking('refund');
      const auth = await onA.authorize(bk.id, bk.total, bk.currency, `two-ref-auth-${bk.id}`);
      expect(auth.status, JSON.stringify(auth.body)).toBe(200);
      const cap = await onB.req('POST', `/api/v1/bookings/${bk.id}/payment/capture`, {
        key: `two-ref-cap-${bk.id}`,
        body: {},
      });
      expect(cap.status, JSON.stringify(cap.body)).toBe(200);
      // Two of these fit in the capture, a third would exceed it.
      const part = Math.floor(bk.total / 3) + 1;
      expect([2 * part <= bk.total, 3 * part > bk.total]).toEqual([true, true]);

      const all: Answer[] = [];
      for (let round = 0; round < 3; round++) {
        const rs = await race((c, i) =>
          c.req('POST', `/api/v1/bookings/${bk.id}/payment/refund?amount_minor=${part}`, {
            key: `two-ref-${bk.id}-${round}-${i}`,
            body: {},
          }),
        );
        for (const r of rs.filter((x) => x.status !== 200)) {
          expect([400, 409], show(rs)).toContain(r.status);
          const allowed = r.status === 409 ? ['operation_in_progress'] : ['amount_exceeds_refundable'];
          expect(allowed, show(rs)).toContain(r.body.code);
        }
        // A round with room left for a refund makes at least one; the last round finds none left.
        const room = all.filter((r) => r.status === 200).length < 2;
        if (room)
          expect(
            rs.map((r) => r.status),
            show(rs),
          ).toContain(200);
        if (round === 2)
          expect(
            rs.map((r) => r.body.code),
            show(rs),
          ).toContain('amount_exceeds_refundable');
        all.push(...rs);
      }
      const ok = all.filter((r) => r.status === 200);
      expect(ok.length, show(all)).toBe(2);
      expect(all.slice(2 * N).filter((r) => r.status === 200)).toEqual([]);

      const [pay] = await rows<{
        state: string;
        captured_minor: number;
        refunded_minor: number;
        provider_payment_ref: string;
      }>(
        'select state, captured_minor, refunded_minor, provider_payment_ref from booking_payments where booking_id = $1',
        bk.id,
      );
      expect([pay?.state, Number(pay?.captured_minor), Number(pay?.refunded_minor)]).toEqual([
        'CAPTURED',
        bk.total,
        2 * part,
      ]);
      expect(Number(pay?.refunded_minor)).toBeLessThanOrEqual(Number(pay?.captured_minor));
      const txs = await rows<{ status: string; amount_minor: number }>(
        "select status, amount_minor from booking_payment_transactions where booking_id = $1 and type = 'refund' order by id",
        bk.id,
      );
      expect(txs.map((t) => [t.status, Number(t.amount_minor)])).toEqual([
        ['succeeded', part],
        ['succeeded', part],
      ]);

      // The provider holds exactly what our tables say: one PaymentIntent, two refunds of `part`.
      const pis = intents(bk.id);
      expect(pis.map((pi) => [pi.id, pi.status, pi.amount_received])).toEqual([
        [pay?.provider_payment_ref, 'succeeded', bk.total],
      ]);
      const at = refunds(pis[0]?.id as string);
      expect(at.map((r) => [r.status, r.amount])).toEqual([
        ['succeeded', part],
        ['succeeded', part],
      ]);
      expect(at.reduce((s, r) => s + r.amount, 0)).toBe(Number(pay?.refunded_minor));
    });
  },
);
