/**
 * A small contract-shaped stand-in for the flight endpoints the real server does not serve yet (it answers
 * 501 while it is being wired). Lets the terminal tests drive the search-and-book flow today; the same
 * tests against the real server are in process.test.ts / tmux.test.ts and skip until it is wired.
 * Honours Idempotency-Key on createPnr (same key, same booking) and the PENDING last-name trigger (502).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { booking, offer } from './data.ts';

export interface StubServer {
  url: string;
  bookings: number;
  /** Make the next captures fail (smoke failure and cleanup tests). */
  failCapture: boolean;
  /** Every money / ticket / cancel call, as "POST <path>" (what cleanup did). */
  calls: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_stub' });
  res.end(JSON.stringify(body));
};
const bodyOf = async (req: IncomingMessage) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
};
const user = {
  user_id: 'u1',
  email: 'agent@stub.test',
  full_name: 'Stub Agent',
  role: 'company_admin',
  company_code: 'ACME',
  user_code: 'agent01',
};

export async function startStubServer(): Promise<StubServer> {
  const byKey = new Map<string, number>();
  const polls = new Map<number, number>();
  let nextId = 100;
  const state = { bookings: 0, failCapture: false, calls: [] as string[] };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const path = url.pathname;
    if (req.method === 'POST' && path === '/api/v1/auth/login') {
      return json(res, 200, {
        access_token: 'stub-token',
        refresh_token: 'stub-refresh',
        token_type: 'bearer',
        expires_in: 900,
        user,
      });
    }
    if (req.method === 'GET' && path === '/api/v1/auth/me') return json(res, 200, user);
    if (req.method === 'POST' && path === '/api/v1/flight/getFare') {
      return json(res, 202, {
        searchId: 'fs_stub',
        status: 'in_progress',
        streamUrl: '/api/v1/flight/getFare/stream/fs_stub',
      });
    }
    if (req.method === 'GET' && path.startsWith('/api/v1/flight/getFare/stream/')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events: [string, unknown][] = [
        ['offer', { offer: offer('off_b', 52_000, 'amadeus') }],
        ['offer', { offer: offer('off_a', 41_000, 'duffel', 1) }],
        ['supplier_done', { supplier: 'duffel', status: 'completed', offer_count: 1 }],
        ['offer', { offer: offer('off_c', 47_500, 'amadeus') }],
        ['supplier_done', { supplier: 'amadeus', status: 'completed', offer_count: 2 }],
        ['supplier_done', { supplier: 'mystifly', status: 'timed_out', offer_count: 0 }],
        ['done', { status: 'partial', total_offers: 3 }],
      ];
      let id = 0;
      for (const [event, data] of events) {
        await new Promise((r) => setTimeout(r, 150)); // let the spinner lines tick
        res.write(`id: ${++id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      }
      return res.end();
    }
    if (req.method === 'POST' && path === '/api/v1/bookings/revalidation') {
      const body = await bodyOf(req);
      return json(res, 200, {
        offer: offer(String(body.offer_id), 41_000),
        available: true,
        price_changed: false,
        previous_total_minor: 41_000,
      });
    }
    if (req.method === 'GET' && path === '/api/v1/customer/travelers') {
      return json(res, 403, { detail: 'Customers only.', code: 'insufficient_role', request_id: 'req_stub' });
    }
    if (req.method === 'POST' && path === '/api/v1/bookings/createPnr') {
      const key = String(req.headers['idempotency-key'] ?? '');
      const body = await bodyOf(req);
      const pending = (body.passengers as { last_name: string }[]).some((p) => p.last_name === 'PENDING');
      let id = byKey.get(key);
      if (id === undefined) {
        id = nextId++;
        byKey.set(key, id);
        state.bookings++;
      }
      if (pending)
        return json(res, 502, {
          detail: 'Supplier has not confirmed yet.',
          code: 'booking_pending',
          booking_id: id,
          request_id: 'req_stub',
        });
      return json(res, 200, booking('confirmed', { booking_id: id }));
    }
    const action = /^\/api\/v1\/bookings\/(\d+)\/(authorize|payment\/\w+|ticket|ticket\/\w+|cancel)$/.exec(
      path,
    );
    if (req.method === 'POST' && action) {
      state.calls.push(`POST ${path}${url.search}`);
      const id = Number(action[1]);
      if (action[2] === 'payment/capture' && state.failCapture) {
        return json(res, 400, {
          detail: 'The provider refused the capture.',
          code: 'capture_failed',
          request_id: 'req_cap',
        });
      }
      if (action[2]?.startsWith('ticket/')) {
        const confirm = url.searchParams.get('confirm') === 'true';
        return json(res, 200, {
          booking_id: id,
          action: action[2].slice(7),
          confirmed: confirm,
          permitted: true,
          determination: 'within_void_window',
          message: 'Void permitted',
          booking_status: confirm ? 'cancelled' : 'ticketed',
        });
      }
      return json(res, 200, { booking_id: id, state: 'ok' });
    }
    const match = /^\/api\/v1\/bookings\/(\d+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const id = Number(match[1]);
      const n = (polls.get(id) ?? 0) + 1;
      polls.set(id, n);
      return json(
        res,
        200,
        n < 2 ? booking('pending_pnr', { booking_id: id }) : booking('confirmed', { booking_id: id }),
      );
    }
    return json(res, 501, {
      detail: `${req.method} ${path} is not stubbed`,
      code: 'not_implemented',
      request_id: 'req_stub',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get bookings() {
      return state.bookings;
    },
    get failCapture() {
      return state.failCapture;
    },
    set failCapture(value: boolean) {
      state.failCapture = value;
    },
    calls: state.calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
