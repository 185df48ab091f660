/**
 * Webhook delivery on the durable job runner: a loopback receiver that fails 3 times then succeeds gets
 * the event, acknowledged once, every attempt validly signed; a failing endpoint is given up on (dead
 * letter) and disabled after 3 days with its admins mailed; in live mode a URL resolving to a private
 * address is refused and never contacted.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventType, record } from '../../src/events/record.ts';
import { deliverHandler, retryDelayMs } from '../../src/events/webhooks/deliver.ts';
import { createEndpoint, listDeliveries, resendDelivery } from '../../src/events/webhooks/endpoints.ts';
import { isPublicAddress } from '../../src/events/webhooks/outbound.ts';
import type { MemoryMailer } from '../../src/mail/mailer.ts';
import { type Journeys, journeys } from '../journeys/world.ts';

let j: Journeys;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];
let answers: number[] = [];
let connections = 0;
let server: Server;
let base: string;

beforeAll(async () => {
  j = await journeys();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end(res.statusCode === 200 ? 'ok' : 'not now');
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await j?.close();
});

const emit = (company: number, type: EventType, id: number) =>
  j.database.db.transaction().execute((trx) =>
    record(trx, {
      type,
      companyId: company,
      resource: { type: 'booking', id, data: { booking_id: id } },
      at: j.clock.now(),
    }),
  );

/** Verifies a Travel-Signature header the way a receiver does. */
function verify(header: string, body: string, secret: string): boolean {
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))?.slice(2);
  const want = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return parts.some((p) => p === `v1=${want}`);
}

describe('webhook delivery', () => {
  it('fails 3 times, then the receiver gets the event once acknowledged, every attempt signed', async () => {
    const company = await j.company();
    const admin = await j.user('company_admin', company.id);
    const ep = await createEndpoint(j.database.db, j.clock, {
      companyId: company.id,
      url: `${base}/hooks`,
      eventTypes: ['booking.confirmed'],
      enabled: true,
      createdBy: admin.id,
    });
    received.length = 0;
    answers = [500, 503, 500];
    await emit(company.id, 'booking.created', 1); // not a type the endpoint takes
    const eventId = await emit(company.id, 'booking.confirmed', 1);
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect(await j.runtime.jobs.runOnce()).toBeGreaterThanOrEqual(1);
      expect(received).toHaveLength(attempt);
      if (attempt < 4) {
        // Nothing is due before the backoff has passed.
        expect(await j.runtime.jobs.runOnce()).toBe(0);
        j.clock.advance(retryDelayMs(attempt));
      }
    }
    for (const r of received) {
      expect(JSON.parse(r.body)).toMatchObject({
        id: eventId,
        type: 'booking.confirmed',
        company_id: company.id,
      });
      expect(verify(String(r.headers['travel-signature']), r.body, ep.secret)).toBe(true);
      expect(verify(String(r.headers['travel-signature']), r.body, 'whsec_wrong')).toBe(false);
    }
    const [d] = (await listDeliveries(j.database.db, company.id, ep.id, 10)) ?? [];
    expect(d).toMatchObject({ event_id: eventId, status: 'succeeded', attempts: 4, last_status: 200 });
    // Acknowledged: nothing more is sent.
    j.clock.advance(86_400_000);
    expect(await j.runtime.jobs.runOnce()).toBe(0);
    expect(received).toHaveLength(4);

    // Resend: one more signed delivery of the same event.
    await resendDelivery(j.database.db, j.clock, company.id, ep.id, d?.id as number);
    expect(await j.runtime.jobs.runOnce()).toBe(1);
    expect(received).toHaveLength(5);
    expect(JSON.parse(received[4]?.body ?? '{}').id).toBe(eventId);
  });

  it('an endpoint failing for 3 days: its delivery is dead, the endpoint disabled, its admin mailed', async () => {
    const company = await j.company();
    const admin = await j.user('company_admin', company.id);
    const ep = await createEndpoint(j.database.db, j.clock, {
      companyId: company.id,
      url: `${base}/down`,
      eventTypes: [],
      enabled: true,
      createdBy: admin.id,
    });
    answers = Array(100).fill(500);
    await emit(company.id, 'payment.captured', 7);
    const start = j.clock.now().getTime();
    let n = 0;
    while (j.clock.now().getTime() - start < 3 * 86_400_000 + 13 * 3_600_000 && n < 50) {
      n += await j.runtime.jobs.runOnce();
      j.clock.advance(3_600_000);
    }
    // Backoff over more than 24 hours: 1 min, 4 min, … then every 12 h, for 3 days.
    expect(n).toBeGreaterThanOrEqual(8);
    expect(n).toBeLessThan(20);
    const [d] = (await listDeliveries(j.database.db, company.id, ep.id, 10)) ?? [];
    expect(d?.status).toBe('dead');
    const row = await j.database.db
      .selectFrom('webhook_endpoints' as never)
      .select(['enabled', 'disabled_reason'] as never)
      .where('id' as never, '=', String(ep.id) as never)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ enabled: false, disabled_reason: 'failing for 3 days' });
    const mails = (j.runtime.app.services.mailer as MemoryMailer).sent.filter((m) => m.to === admin.email);
    expect(mails.map((m) => m.subject)).toEqual(['A webhook endpoint was disabled']);
    answers = [];
  });

  it('live mode: a URL resolving to a private address is refused and never contacted', async () => {
    const company = await j.company();
    const admin = await j.user('company_admin', company.id);
    const port = (server.address() as AddressInfo).port;
    const ep = await createEndpoint(j.database.db, j.clock, {
      companyId: company.id,
      url: `https://hooks.example.test:${port}/x`,
      eventTypes: [],
      enabled: true,
      createdBy: admin.id,
    });
    const eventId = await emit(company.id, 'booking.cancelled', 9);
    const [d] = (await listDeliveries(j.database.db, company.id, ep.id, 10)) ?? [];
    const live = deliverHandler({
      db: j.database.db,
      clock: j.clock,
      mailer: j.runtime.app.services.mailer,
      // The name resolves to this machine (as a rebinding attacker's DNS would answer).
      policy: { sandbox: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
    });
    const before = connections;
    await live({
      id: 'live-test',
      queue: 'webhook.deliver',
      payload: { delivery_id: d?.id },
      attempts: 1,
      maxAttempts: 5,
      signal: new AbortController().signal,
    });
    expect(connections).toBe(before);
    const [after] = (await listDeliveries(j.database.db, company.id, ep.id, 10)) ?? [];
    expect(after).toMatchObject({ event_id: eventId, status: 'pending', attempts: 1 });
    expect(after?.last_error).toMatch(/^refused: .*non-public address/);
    for (const a of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      'fd00::1',
    ])
      expect(isPublicAddress(a), a).toBe(false);
    for (const a of ['93.184.216.34', '2606:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
  });
});

describe('retention', () => {
  it('purges old events and finished deliveries, keeps an event whose delivery is still pending', async () => {
    const { purgeEvents } = await import('../../src/events/retention.ts');
    const company = await j.company();
    const admin = await j.user('company_admin', company.id);
    await createEndpoint(j.database.db, j.clock, {
      companyId: company.id,
      url: `${base}/keep`,
      eventTypes: ['ticket.voided'],
      enabled: true,
      createdBy: admin.id,
    });
    const pending = await emit(company.id, 'ticket.voided', 11); // its delivery is never attempted here
    const done = await emit(company.id, 'ticket.issued', 11);
    const ids = async () =>
      (
        await j.database.db
          .selectFrom('events' as never)
          .select('id' as never)
          .where('id' as never, 'in', [pending, done] as never)
          .execute()
      ).map((r) => (r as { id: string }).id);
    expect((await ids()).sort()).toEqual([pending, done].sort());
    await purgeEvents(j.database.db, new Date(j.clock.now().getTime() + 86_400_000));
    expect(await ids()).toEqual([pending]);
  });
});
