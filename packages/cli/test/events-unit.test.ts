/**
 * The pieces of `travel listen` / `events` / `webhooks` that need no real server: `--events` parsing, the
 * forwarding signature (checked with the SDK's own verifier), and a stream that drops: listen reconnects
 * with `Last-Event-ID` and prints every event once (a local SSE server stands in for the feed).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhooks } from '@travel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicProfile } from '../src/commands/config.ts';
import { parseOverlap } from '../src/commands/webhooks.ts';
import { UsageError } from '../src/errors.ts';
import { parseEventTypes } from '../src/event-types.ts';
import { newListenSecret, parseForwardUrl, signatureHeader } from '../src/forward.ts';
import { freshConfigDir } from './helpers/cli.ts';
import { startListen, until } from './helpers/listen.ts';

describe('--events', () => {
  it('takes a list, kinds with .* and * for all, in the contract order', () => {
    expect(parseEventTypes('payment.captured, booking.created', '--events')).toEqual([
      'booking.created',
      'payment.captured',
    ]);
    expect(parseEventTypes('ticket.*', '--events')).toEqual([
      'ticket.issued',
      'ticket.voided',
      'ticket.refunded',
    ]);
    expect(parseEventTypes('*', '--events')).toBeUndefined();
    expect(parseEventTypes(undefined, '--events')).toBeUndefined();
  });

  it('refuses an unknown type or kind, naming the kinds there are', () => {
    expect(() => parseEventTypes('booking.paid', '--events')).toThrow(UsageError);
    expect(() => parseEventTypes('hotel.*', '--type')).toThrow(
      /--type: no event type "hotel\.\*" \(kinds: booking\.\*/,
    );
    expect(() => parseEventTypes(' , ', '--events')).toThrow(/at least one/);
  });
});

describe('forwarding', () => {
  it('signs as the server signs deliveries: constructEvent accepts it, and refuses another body', async () => {
    const secret = newListenSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const body = JSON.stringify({ id: 'evt_x', type: 'booking.created' });
    const t = Math.floor(Date.now() / 1000);
    const header = signatureHeader(secret, t, body);
    expect(header).toMatch(new RegExp(`^t=${t},v1=[0-9a-f]{64}$`));
    expect(await webhooks.constructEvent(body, header, secret)).toEqual(JSON.parse(body));
    await expect(webhooks.constructEvent(`${body} `, header, secret)).rejects.toThrow('No signature matches');
  });

  it('config list says a listen secret is stored, never the secret', () => {
    const shown = publicProfile({ listen_secret: 'whsec_abc', base_url: 'http://x' }, new Date());
    expect(shown).toMatchObject({ listen_secret: 'stored', base_url: 'http://x' });
    expect(JSON.stringify(shown)).not.toContain('whsec_abc');
  });

  it('--forward-to takes http(s) URLs, a bare host:port as http', () => {
    expect(parseForwardUrl('localhost:3000/hooks')?.href).toBe('http://localhost:3000/hooks');
    expect(parseForwardUrl('https://example.test/h')?.href).toBe('https://example.test/h');
    expect(() => parseForwardUrl('ftp://example.test/')).toThrow(/http:\/\/ or https:\/\//);
  });

  it('--overlap takes seconds or a duration up to 7 days', () => {
    expect(parseOverlap('0')).toBe(0);
    expect(parseOverlap('12h')).toBe(43_200);
    expect(parseOverlap('1d')).toBe(86_400);
    expect(() => parseOverlap('8d')).toThrow(UsageError);
    expect(() => parseOverlap('soon')).toThrow(UsageError);
  });
});

describe('a dropped stream', () => {
  const connections: IncomingHttpHeaders[] = [];
  let server: Server;
  let base = '';
  const event = (id: string) =>
    JSON.stringify({
      id,
      object: 'event',
      type: 'booking.confirmed',
      created_at: '2026-11-29T01:02:03.000Z',
      company_id: 1,
      resource: { type: 'booking', id: '7', version: id === 'evt_one' ? 1 : 2 },
      data: {},
      request_id: null,
      job_id: 'job_1',
    });
  beforeAll(async () => {
    server = createServer((req, res) => {
      connections.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections.length === 1) {
        // One event, then the connection breaks (a proxy restart, a network blip).
        res.end(`retry: 10\nid: evt_one\nevent: event\ndata: ${event('evt_one')}\n\n`);
      } else {
        // Left open after the second event: the feed never ends by itself.
        res.write(`id: evt_two\nevent: event\ndata: ${event('evt_two')}\n\n`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('reconnects with Last-Event-ID, says so, and prints each event once', async () => {
    const listen = startListen([], { TRAVEL_BASE_URL: base, TRAVEL_TOKEN: 't' }, freshConfigDir());
    await until(
      () => listen.stdout().includes('evt_two'),
      () => `both events on stdout:\n${listen.stdout()}\nstderr:\n${listen.stderr()}`,
    );
    expect(connections[0]?.['last-event-id']).toBeUndefined();
    expect(connections[1]?.['last-event-id']).toBe('evt_one');
    expect(connections[1]?.authorization).toBe('Bearer t');
    const lines = listen.stdout().trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^2026-11-29 01:02:03 {2}booking\.confirmed +booking 7 v1 +evt_one$/),
      expect.stringMatching(/^2026-11-29 01:02:03 {2}booking\.confirmed +booking 7 v2 +evt_two$/),
    ]);
    expect(listen.stderr()).toContain('Ready.');
    expect(listen.stderr()).toContain('reconnected; resuming after evt_one');
    expect(await listen.interrupt()).toBe(130);
  });
});

describe('a server that goes away', () => {
  it('before listening: exit 1 at once, naming the server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const listen = startListen(
      [],
      { TRAVEL_BASE_URL: `http://127.0.0.1:${port}`, TRAVEL_TOKEN: 't' },
      freshConfigDir(),
    );
    const code = await new Promise<number | null>((resolve) => listen.child.on('close', resolve));
    expect(code).toBe(1);
    expect(listen.stderr()).toContain(`127.0.0.1:${port}`);
    expect(listen.stderr()).not.toContain('Ready.');
  });

  it('while listening: retried with backoff until it is back, resuming after the last event', async () => {
    const seen: (string | undefined)[] = [];
    const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      seen.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const id = seen.length === 1 ? 'evt_before' : 'evt_after';
      res.write(
        `id: ${id}\nevent: event\ndata: ${JSON.stringify({ id, type: 'payment.captured', created_at: '2026-11-29T02:00:00Z', resource: { type: 'payment', id: '9', version: seen.length } })}\n\n`,
      );
    };
    let server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const listen = startListen(
      [],
      { TRAVEL_BASE_URL: `http://127.0.0.1:${port}`, TRAVEL_TOKEN: 't' },
      freshConfigDir(),
    );
    await until(
      () => listen.stdout().includes('evt_before'),
      () => `the first event:\n${listen.stderr()}`,
    );
    // The server stops: the open stream breaks and new connections are refused.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await until(
      () => listen.stderr().includes('reconnecting in'),
      () => `a reconnect notice:\n${listen.stderr()}`,
    );
    expect(listen.stderr()).toContain(`lost http://127.0.0.1:${port}`);
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await until(
      () => listen.stdout().includes('evt_after'),
      () => `the event after the restart:\n${listen.stderr()}`,
    );
    expect(seen.at(-1)).toBe('evt_before');
    expect(await listen.interrupt()).toBe(130);
    server.closeAllConnections();
    server.close();
  });
});
