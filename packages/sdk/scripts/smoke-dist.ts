/**
 * Loads the built package both ways (require and import) and runs a stream and an error through each:
 * catches interop bugs (default exports, the bundled ESM-only parser) that tests against source cannot.
 * Run by `pnpm --filter @travel/sdk smoke` after a build.
 */
import { createRequire } from 'node:module';

type Sdk = typeof import('../src/index.ts');

const encoder = new TextEncoder();
const fetch = async (request: Request): Promise<Response> => {
  if (request.url.includes('/stream/')) {
    const sse = 'id: 1\nevent: offer\ndata: {"offer":{"offer_id":"a"}}\n\nid: 2\nevent: done\ndata: {}\n\n';
    return new Response(new Blob([encoder.encode(sse)]).stream(), {
      headers: { 'content-type': 'text/event-stream' },
    });
  }
  return Response.json({ detail: 'declined', code: 'payment_declined', request_id: 'r1' }, { status: 400 });
};

async function check(label: string, sdk: Sdk): Promise<void> {
  const travel = sdk.createTravelClient({ baseUrl: 'http://smoke.test', fetch });
  const offers = await travel.flights.resume('s1').offers();
  if (offers.length !== 1) throw new Error(`${label}: expected one offer, got ${offers.length}`);
  const error = await travel.payments
    .authorize(1, { token: 't', currency: 'GBP', amount_minor: 1 })
    .catch((caught: unknown) => caught);
  if (!(error instanceof sdk.PaymentDeclinedError)) throw new Error(`${label}: error mapping broken`);
  console.log(`${label}: ok`);
}

await check('cjs', createRequire(import.meta.url)('../dist/index.cjs') as Sdk);
await check('esm', (await import('../dist/index.js' as string)) as Sdk);
