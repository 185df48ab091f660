/**
 * /api/v1/company/webhook-endpoints: a company admin registers an endpoint (the secret shown once),
 * rolls its secret (both signatures sent during the overlap), lists deliveries and resends one; other
 * companies and staff cannot reach it; URLs outside the trust rules are refused.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record } from '../../src/events/record.ts';
import { type Journeys, journeys } from '../journeys/world.ts';

let j: Journeys;
let server: Server;
let base: string;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  j = await journeys();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await j?.close();
});

const v1s = (header: string) =>
  header
    .split(',')
    .filter((p) => p.startsWith('v1='))
    .map((p) => p.slice(3));
const sig = (secret: string, header: string, body: string) =>
  createHmac('sha256', secret)
    .update(`${header.split(',')[0]?.slice(2)}.${body}`)
    .digest('hex');

describe('webhook endpoints API', () => {
  it('create (secret once), list, roll with overlap (two v1), deliveries, resend; tenancy and URL rules', async () => {
    const company = await j.company();
    const admin = (await j.user('company_admin', company.id)).token;
    const staff = (await j.user('company_staff', company.id)).token;
    const path = '/api/v1/company/webhook-endpoints';
    const c = await j.req('POST', path, {
      token: admin,
      body: { url: `${base}/in`, event_types: ['booking.confirmed'] },
    });
    expect(c.status).toBe(201);
    expect(c.body.secret).toMatch(/^whsec_/);
    const id = c.body.id as number;
    const listed = await j.req('GET', path, { token: admin });
    expect(listed.body.data.map((e: { id: number }) => e.id)).toEqual([id]);
    expect(listed.body.data[0].secret).toBeUndefined();
    expect((await j.req('GET', path, { token: staff })).status).toBe(403);
    for (const url of [
      'http://hooks.example.com/x',
      'ftp://127.0.0.1/x',
      'https://user:pw@hooks.example.com/',
    ]) {
      const r = await j.req('POST', path, { token: admin, body: { url } });
      expect([r.status, r.body.code], url).toEqual([400, 'webhook_url_refused']);
    }

    const roll = await j.req('POST', `${path}/${id}/roll-secret`, {
      token: admin,
      body: { overlap_seconds: 3600 },
    });
    expect(roll.status).toBe(200);
    expect(roll.body.secret).not.toBe(c.body.secret);
    received.length = 0;
    const eventId = await j.database.db.transaction().execute((trx) =>
      record(trx, {
        type: 'booking.confirmed',
        companyId: company.id,
        resource: { type: 'booking', id: 5, data: { booking_id: 5 } },
        at: j.clock.now(),
      }),
    );
    expect(await j.runtime.jobs.runOnce()).toBeGreaterThanOrEqual(1);
    expect(received).toHaveLength(1);
    const h = String(received[0]?.headers['travel-signature']);
    const body = received[0]?.body ?? '';
    expect(v1s(h)).toEqual([sig(roll.body.secret, h, body), sig(c.body.secret, h, body)]);

    const ds = await j.req('GET', `${path}/${id}/deliveries`, { token: admin });
    expect(ds.status).toBe(200);
    expect(ds.body.data[0]).toMatchObject({
      event_id: eventId,
      status: 'succeeded',
      attempts: 1,
      last_status: 200,
    });
    const re = await j.req('POST', `${path}/${id}/deliveries/${ds.body.data[0].id}/resend`, { token: admin });
    expect([re.status, re.body.status]).toEqual([200, 'pending']);
    j.clock.advance(3_600_001); // the overlap is over: one signature
    expect(await j.runtime.jobs.runOnce()).toBe(1);
    const h2 = String(received[1]?.headers['travel-signature']);
    expect(v1s(h2)).toEqual([sig(roll.body.secret, h2, received[1]?.body ?? '')]);

    // Another company's admin: as if it did not exist.
    const other = await j.company();
    const otherAdmin = (await j.user('company_admin', other.id)).token;
    const foreign = await j.req('GET', `${path}/${id}/deliveries`, { token: otherAdmin });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'webhook_endpoint_not_found']);
    const fresh = (await j.user('company_admin', company.id)).token; // the first token expired meanwhile
    const off = await j.req('PATCH', `${path}/${id}`, { token: fresh, body: { enabled: false } });
    expect([off.status, off.body.enabled]).toEqual([200, false]);
    expect(j.violations).toEqual([]);
  });
});
