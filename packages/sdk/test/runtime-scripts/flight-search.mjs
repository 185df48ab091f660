/**
 * Run by test/runtimes.test.ts under Bun, Deno and Node against a real server: the BUILT package
 * (dist/index.js, ESM), no test helpers, only what a user's script would do. Logs in, starts a flight
 * search, reads its SSE stream to the terminal event, revalidates one offer, maps a 404 to its error class,
 * and prints one JSON line (the last line of stdout) that the test checks.
 *
 * Reads TRAVEL_BASE_URL, TRAVEL_EMAIL and TRAVEL_PASSWORD, then, with `--web-only` (the Deno run),
 * removes the Node globals (process, Buffer, global, setImmediate, clearImmediate) BEFORE loading the
 * SDK, as on Cloudflare Workers and other edge runtimes without Node compatibility: the package must need
 * nothing beyond fetch, web streams, AbortSignal and crypto.randomUUID.
 */
const runtime = globalThis.Bun
  ? { name: 'bun', version: globalThis.Bun.version }
  : globalThis.Deno
    ? { name: 'deno', version: globalThis.Deno.version.deno }
    : { name: 'node', version: globalThis.process.versions.node };

const env = globalThis.process.env;
const baseUrl = env.TRAVEL_BASE_URL;
const email = env.TRAVEL_EMAIL;
const password = env.TRAVEL_PASSWORD;
if (!baseUrl || !email || !password) throw new Error('set TRAVEL_BASE_URL, TRAVEL_EMAIL and TRAVEL_PASSWORD');

const webOnly = globalThis.process.argv.includes('--web-only');
if (webOnly) {
  for (const name of ['process', 'Buffer', 'global', 'setImmediate', 'clearImmediate']) {
    delete globalThis[name];
    if (name in globalThis) throw new Error(`could not remove the global ${name}`);
  }
}

const { createTravelClient, NotFoundError, TravelApiError } = await import('../../dist/index.js');

const travel = createTravelClient({ baseUrl });
await travel.auth.login({ email, password });
const me = await travel.auth.me();

const departureDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const search = await travel.flights.search({
  companyCode: me.company_code ?? '',
  userCode: me.user_code ?? '',
  searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate }],
  adults: 1,
});

const eventCounts = {};
const offers = [];
const supplierDone = [];
let last;
for await (const event of search.stream({ signal: AbortSignal.timeout(50_000) })) {
  eventCounts[event.event] = (eventCounts[event.event] ?? 0) + 1;
  if (event.event === 'offer') offers.push(event.data.offer);
  if (event.event === 'supplier_done') supplierDone.push(event.data);
  last = event;
}

const cheapest = offers.toSorted((a, b) => a.price.total_minor - b.price.total_minor)[0];
if (!cheapest) throw new Error('no offers');
const check = await travel.bookings.revalidate({
  offer_id: cheapest.offer_id,
  currency: cheapest.price.currency,
});

const notFound = await travel.bookings.get('ZZZZZZ').then(
  () => undefined,
  (error) => error,
);

console.log(
  JSON.stringify({
    runtime,
    webOnly,
    searchId: search.searchId,
    eventCounts,
    offers: offers.length,
    suppliers: [...new Set(offers.map((offer) => offer.supplier))].sort(),
    supplierDone: supplierDone.map(({ supplier, status, offer_count }) => ({
      supplier,
      status,
      offer_count,
    })),
    terminal: last && { event: last.event, status: last.data.status, total_offers: last.data.total_offers },
    revalidated: {
      offer_id: check.offer.offer_id,
      requested: cheapest.offer_id,
      available: check.available,
      price_changed: check.price_changed,
      currency: check.offer.price.currency,
      total_minor: check.offer.price.total_minor,
    },
    notFound: {
      isNotFoundError: notFound instanceof NotFoundError,
      isTravelApiError: notFound instanceof TravelApiError,
      name: notFound?.name,
      status: notFound?.status,
      code: notFound?.code,
    },
  }),
);
