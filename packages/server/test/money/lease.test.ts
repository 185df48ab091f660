/**
 * Issue 14: a request that died between its intent row and settling. The op records the idempotency lease
 * of its owner; while that lease is held the job leaves the op alone (the owner settles it), and once the
 * lease lapses (no heartbeat: the process is gone) the job settles it at its next look, so the booking
 * answers 409 `operation_in_progress` for about one lease, not for a fixed two minutes. Also: a pending
 * capture settled by the job turns the stored 202 into the settled 200 for a same-key retry.
 */
import { describe, expect, it } from 'vitest';
import { beginOp, referenceOf } from '../../src/domains/flight-booking/money-ops.ts';
import { insertPayment, insertTransaction } from '../../src/domains/flight-booking/payment/store.ts';
import { idempotencyContext, idempotencyScope } from '../../src/kernel/middleware/idempotency.ts';
import type { RequestContext } from '../../src/kernel/types.ts';
import { check } from '../booking/checks.ts';
import { lossyFetch } from '../harness/lossy-fetch.ts';
import {
  authorized,
  B,
  booked,
  intents,
  ops,
  paymentsOf,
  refundsOf,
  statusOf,
  useMoneyWorld,
} from './world.ts';

/** The next Stripe call reaches the emulator, then its answer is lost (a reset after the effect). */
const stripeLink = lossyFetch();
const ctx = useMoneyWorld(stripeLink.fetch);
const LEASE_MS = 15_000;

describe('an owner that died between the intent and settling', () => {
  it('409 while its lease is held, settled by the job right after the lease lapses', async () => {
    const w = ctx.w;
    const b = await booked(w);
    const userId = (await w.database.db
      .selectFrom('flight_bookings' as never)
      .select('user_id' as never)
      .where('id' as never, '=', b.id as never)
      .executeTakeFirstOrThrow()) as { user_id: string };
    // What authorize had committed when its process died: the claim of its key (lease renewed by its
    // heartbeat until the crash), the intent with a PENDING payment, and the authorization at Stripe.
    const idemKey = `crash-auth-${b.id}`;
    const reqCtx = {
      auth: { userId: userId.user_id },
      ip: '127.0.0.1',
      operationId: 'authorizePayment',
      headers: { 'idempotency-key': idemKey },
      params: { booking_id: b.id },
      query: {},
      body: { token: 'tok_sandbox_ok', currency: b.currency, amount_minor: b.total },
    } as unknown as RequestContext;
    reqCtx.idempotency = idempotencyContext(reqCtx, idemKey);
    const scope = reqCtx.idempotency.scope;
    expect(scope).toBe(idempotencyScope(`user:${userId.user_id}`, 'authorizePayment', idemKey));
    const t0 = w.clock.now();
    await w.database.db
      .insertInto('idempotency_keys')
      .values({
        scope,
        caller: `user:${userId.user_id}`,
        operation_id: 'authorizePayment',
        idem_key: idemKey,
        request_hash: 'h',
        status: 'in_progress',
        created_at: t0,
        locked_until: new Date(t0.getTime() + LEASE_MS),
        lease_owner: 'the-process-that-died',
      })
      .execute();
    const key = `bk${b.id}:authorize:${idemKey}`;
    const { op } = await beginOp({
      db: w.database.db,
      clock: w.clock,
      bookingId: b.id,
      kind: 'authorize',
      key,
      ctx: reqCtx,
      check: async (trx, booking) => {
        const pay = await insertPayment(
          trx,
          {
            booking_id: booking.id,
            state: 'PENDING',
            amount_minor: b.total,
            captured_minor: 0,
            refunded_minor: 0,
            currency: b.currency,
            provider: 'stripe',
            provider_payment_ref: null,
          },
          t0,
        );
        await insertTransaction(
          trx,
          {
            payment_id: pay.id,
            booking_id: booking.id,
            type: 'authorization',
            status: 'pending',
            amount_minor: b.total,
            currency: b.currency,
            idempotency_key: key,
          },
          t0,
        );
        return pay;
      },
      detail: (pay) => ({ payment_id: pay.id, detail: { intent_ref: referenceOf(key) } }),
    });
    expect(op.owner_scope).toBe(scope);
    await w.suppliers.payments().authorize(
      {
        token: 'tok_sandbox_ok',
        amount_minor: b.total,
        currency: b.currency as never,
        description: 'crashed authorize',
        metadata: { booking_id: String(b.id), intent_ref: referenceOf(key) },
      },
      { idempotencyKey: key },
    );

    const other = () =>
      b.as('POST', `${B(b.id)}/authorize`, {
        key: `other-${b.id}-${w.clock.now().getTime()}`,
        body: { token: 'tok_sandbox_ok', currency: b.currency, amount_minor: b.total },
      });
    const busy = await other();
    expect([busy.status, busy.body.code]).toEqual([409, 'operation_in_progress']);

    // The job's first look comes seconds after the intent (MONEY_RECONCILE_DELAY_MS, 5 s), not minutes;
    // the owner's lease is still held then, so it leaves the op alone.
    w.clock.advance(6_000);
    expect(await w.runner.runOnce()).toBe(1);
    expect((await ops(w, b.id)).map((o) => o.status)).toEqual(['requested']);
    expect((await other()).status).toBe(409);

    // No heartbeat renews the lease: it lapses one lease after the crash, and the next look settles.
    w.clock.set(new Date(t0.getTime() + LEASE_MS + 1));
    while ((await w.runner.runOnce()) > 0) {}
    const [pi, ...more] = intents(w, b.id);
    expect(more).toHaveLength(0);
    expect((await paymentsOf(w, b.id)).map((p) => [p.state, p.provider_payment_ref])).toEqual([
      ['AUTHORIZED', pi?.id],
    ]);
    expect((await ops(w, b.id)).map((o) => o.status)).toEqual(['done']);
    expect(await statusOf(w, b.id)).toBe('payment_pending');
    const refused = await other();
    expect([refused.status, refused.body.code]).toEqual([400, 'invalid_payment_state']);
    check('capturePayment', await b.as('POST', `${B(b.id)}/payment/capture`, { key: `cap-${b.id}` }));
  });
});

describe('the stored pending answer becomes the settled truth', () => {
  it('capture: 202 pending stored, the job settles it, the same key then answers 200 CAPTURED', async () => {
    const b = await authorized(ctx.w);
    stripeLink.loseNextAnswer();
    const key = `pending-cap-${b.id}`;
    const r = await b.as('POST', `${B(b.id)}/payment/capture`, { key });
    check('capturePayment', r, 202);
    const replay = await b.as('POST', `${B(b.id)}/payment/capture`, { key });
    expect([replay.status, replay.body.outcome]).toEqual([202, 'pending']);
    ctx.w.clock.advance(3_000);
    while ((await ctx.w.runner.runOnce()) > 0) {}
    const settled = await b.as('POST', `${B(b.id)}/payment/capture`, { key });
    check('capturePayment', settled);
    expect(settled.headers.get('idempotent-replayed')).toBe('true');
    expect(settled.body).toMatchObject({ state: 'CAPTURED', captured_minor: b.total });
    expect(settled.body.outcome).toBeUndefined();
  });
});

describe('admin manual refund: a same-key retry of a request that died', () => {
  it('is answered from the refund it wrote ahead, never refunded a second time', async () => {
    const w = ctx.w;
    const b = await authorized(w);
    expect((await b.as('POST', `${B(b.id)}/payment/capture`, { key: `mr-cap-${b.id}` })).status).toBe(200);
    const admin = await w.user({ role: 'super_admin' });
    const [pay] = await paymentsOf(w, b.id);
    const key = `mr-crash-${b.id}`;
    const refund = () =>
      w.req('POST', `/api/v1/admin/payments/${pay?.id}/manual-refund`, {
        token: admin.token,
        key,
        body: { amount_minor: 1000, currency: b.currency, reason: 'goodwill' },
      });
    const first = await refund();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // The process died after the refund settled but before its answer reached the key: the key holds no
    // answer and its lease has lapsed, so the middleware lets the retry in.
    await w.database.db.deleteFrom('idempotency_keys').where('idem_key', '=', key).execute();
    const retry = await refund();
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.refunded_minor).toBe(first.body.refunded_minor);
    const [pi] = intents(w, b.id);
    expect(refundsOf(w, pi?.id as string)).toHaveLength(1);
    const [after] = await paymentsOf(w, b.id);
    expect(after?.refunded_minor).toBe(1000);
  });
});
