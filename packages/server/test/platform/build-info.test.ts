/**
 * Build information: the commit comes from TRAVEL_BUILD_COMMIT, else the checkout's git, else "unknown";
 * and every supplier client sends it in its User-Agent (a capturing HTTP server stands in for each
 * supplier, so what goes on the wire is what is checked).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildInfo, readBuildInfo, userAgent } from '../../src/internal/build-info.ts';
import { AmadeusClient } from '../../src/suppliers/amadeus/client.ts';
import { createDuffel } from '../../src/suppliers/duffel/client.ts';
import { HotelbedsClient } from '../../src/suppliers/hotelbeds/client.ts';
import { MystiflyClient } from '../../src/suppliers/mystifly/client.ts';
import { createStripeClient } from '../../src/suppliers/stripe/client.ts';

describe('build info', () => {
  test('commit: TRAVEL_BUILD_COMMIT, else git, else unknown; version: the server package', () => {
    expect(readBuildInfo({ TRAVEL_BUILD_COMMIT: 'abc1234' }, () => 'ffff').commit).toBe('abc1234');
    expect(readBuildInfo({}, () => 'deadbeef').commit).toBe('deadbeef');
    expect(readBuildInfo({}, () => undefined)).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      commit: 'unknown',
    });
  });

  test('from this checkout (no TRAVEL_BUILD_COMMIT), the commit is git HEAD', () => {
    const b = readBuildInfo({});
    expect(b.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(userAgent(b)).toBe(`travel-server/${b.version}+${b.commit.slice(0, 12)}`);
  });
});

describe('User-Agent sent to suppliers', () => {
  const seen: IncomingHttpHeaders[] = [];
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.setHeader('content-type', 'application/json');
      // Enough for the Amadeus SDK's token request; every other client just gets an empty object.
      res.end(JSON.stringify({ access_token: 't', expires_in: 1799, token_type: 'Bearer' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const agentOf = async (call: () => Promise<unknown>) => {
    seen.length = 0;
    await call().catch(() => undefined); // the answer is not theirs; only the request matters
    expect(seen.length).toBeGreaterThan(0);
    return seen.map((h) => String(h['user-agent']));
  };
  const tag = userAgent();

  test('Mystifly and Hotelbeds (our own fetch clients): exactly ours', async () => {
    const mystifly = new MystiflyClient({ baseUrl: url, userName: 'u', password: 'p', accountNumber: 'a' });
    expect(await agentOf(() => mystifly.call('POST', '/api/v1/Search/Flight', {}))).toContain(userAgent());
    const hotelbeds = new HotelbedsClient({ baseUrl: url, apiKey: 'k', secret: 's' }, 'hotelbeds');
    expect(await agentOf(() => hotelbeds.call('GET', '/hotel-api/1.0/status', undefined))).toEqual([
      userAgent(),
    ]);
  });

  test('Amadeus, Duffel and Stripe (their SDKs): ours appended to the SDK’s own', async () => {
    const amadeus = new AmadeusClient({ clientId: 'c', clientSecret: 's', baseUrl: url }, 'amadeus');
    const a = await agentOf(() => amadeus.call((sdk) => sdk.client.get('/v1/reference-data/airlines', {})));
    expect(a[0]).toMatch(/^amadeus-node\/\S+ node\/\S+ /);
    expect(a[0]?.endsWith(tag)).toBe(true);
    const duffel = createDuffel({ token: 'duffel_test_x', baseUrl: url });
    const d = await agentOf(() => duffel.airlines.get('arl_1'));
    expect(d[0]).toMatch(/^Duffel\/v2 duffel_api_javascript\/\S+ source\/travel-server@/);
    expect(d[0]).toContain(buildInfo().commit.slice(0, 12));
    const stripe = createStripeClient({ baseUrl: url, secretKey: 'sk_test_x', maxNetworkRetries: 0 });
    const s = await agentOf(() => stripe.paymentIntents.retrieve('pi_1'));
    expect(s[0]).toMatch(/^Stripe\/v1 NodeBindings\//);
    expect(s[0]).toContain(tag);
  });
});
