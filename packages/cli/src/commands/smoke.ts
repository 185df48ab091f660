/**
 * `travel smoke`: the CI smoke booking (login, search, revalidate, book, authorize, capture, ticket, void
 * quote, void) with a step table, and a cleanup that undoes whatever it created even after a failure.
 * Every booking carries the run tag in client_ref so `travel smoke sweep --tag` can find orphans.
 */
import type { Booking, FlightOffer, TravelClient } from '@travel/sdk';
import { Command } from 'commander';
import { currentApiKey } from '../api-key.ts';
import { action, examples, output } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError, exitCodeFor, UsageError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { resolveAgentCodes } from '../identity.ts';
import { integer } from '../parse.ts';
import { createStepRunner, defaultTag, failure, type StepRecord, smokeRef } from '../smoke-steps.ts';
import { byPrice, money, renderTable } from '../ui/table.ts';
import { listBookings } from './booking.ts';

export interface SmokeOptions {
  origin: string;
  destination: string;
  daysAhead: number;
  tag: string;
  timeoutSeconds: number;
  companyCode: string | undefined;
  userCode: string | undefined;
}

export function parseSmokeOptions(
  raw: {
    route?: string;
    tag?: string;
    days?: string;
    timeout?: string;
    companyCode?: string;
    userCode?: string;
  },
  env: NodeJS.ProcessEnv,
  now: Date,
): SmokeOptions {
  const route = (raw.route ?? 'LHR-DXB').toUpperCase();
  const match = /^([A-Z]{3})-([A-Z]{3})$/.exec(route);
  if (!match?.[1] || !match[2]) throw new UsageError(`--route must look like LHR-DXB, got "${raw.route}"`);
  return {
    origin: match[1],
    destination: match[2],
    daysAhead: integer(raw.days, '--days', 1, 330) ?? 30,
    tag: raw.tag ?? env.TRAVEL_SMOKE_TAG ?? defaultTag(env, now),
    timeoutSeconds: integer(raw.timeout, '--timeout', 5, 600) ?? 60,
    companyCode: raw.companyCode,
    userCode: raw.userCode,
  };
}

/**
 * Logs in from TRAVEL_EMAIL/TRAVEL_PASSWORD when given (nothing is stored), else uses TRAVEL_API_KEY,
 * TRAVEL_TOKEN or the stored login (which refreshes itself).
 */
async function smokeClient(ctx: Ctx): Promise<TravelClient> {
  const { TRAVEL_EMAIL: email, TRAVEL_PASSWORD: password } = ctx.env;
  if (email && password && !ctx.env.TRAVEL_API_KEY) {
    const client = ctx.client({ token: '' });
    await client.auth.login({ email, password });
    return client;
  }
  if (ctx.credential().kind === 'none') {
    throw new CliError(
      'smoke needs TRAVEL_API_KEY, TRAVEL_EMAIL and TRAVEL_PASSWORD, TRAVEL_TOKEN, or a stored login',
      ExitCode.authentication,
    );
  }
  const client = ctx.client();
  // One request proves the credential (a revoked key: 401 api_key_revoked, exit 3); keys may not call /auth/me.
  if (ctx.credential().kind === 'api_key') await currentApiKey(ctx);
  else await client.auth.me();
  return client;
}

interface Created {
  booking?: Booking;
  /** The booking's status as last reported by the server (book, void). */
  status?: string;
  authorized?: boolean;
  captured?: boolean;
  ticketed?: boolean;
  voided?: boolean;
  /** The confirmed void gave the money back itself (the server settles the payment with the tickets). */
  settledByVoid?: string;
}

/** The void's own payment settlement, when it gave (or is giving) the money back. */
function settledBy(done: {
  payment?: { action: string; amount_minor: number; currency: string; status: string } | null;
}) {
  const p = done.payment;
  if (!p || !['succeeded', 'pending', 'awaiting_supplier', 'not_required'].includes(p.status))
    return undefined;
  return `${p.action} ${p.amount_minor} ${p.currency} ${p.status} (by the void)`;
}

export async function runSmoke(options: SmokeOptions, ctx: Ctx): Promise<void> {
  const clock = () => ctx.now().getTime();
  const runner = createStepRunner(clock);
  const created: Created = {};
  let client: TravelClient | undefined;
  const date = new Date(clock() + options.daysAhead * 86_400_000).toISOString().slice(0, 10);

  await runner.run('login', async () => {
    client = await smokeClient(ctx);
  });
  const offer = await runner.run(
    'search',
    async () => {
      // Logged in from TRAVEL_EMAIL: the stored profile may belong to someone else, so ask the server.
      const envLogin = Boolean(ctx.env.TRAVEL_API_KEY || (ctx.env.TRAVEL_EMAIL && ctx.env.TRAVEL_PASSWORD));
      const codes = await resolveAgentCodes(
        ctx,
        { companyCode: options.companyCode, userCode: options.userCode },
        { ignoreProfile: envLogin },
      );
      const search = await (client as TravelClient).flights.search({
        ...codes,
        searchAirLegs: [{ origin: options.origin, destination: options.destination, departureDate: date }],
      });
      const offers = await search.offers({ signal: AbortSignal.timeout(options.timeoutSeconds * 1000) });
      const cheapest = byPrice<FlightOffer>()(offers)[0];
      if (!cheapest) throw new Error(`no offers for ${options.origin}-${options.destination} on ${date}`);
      return cheapest;
    },
    (o: FlightOffer) => `${offerCount(o)} ${o.supplier} ${money(o.price.total_minor, o.price.currency)}`,
  );
  const checked = await runner.run(
    'revalidate',
    async () => {
      const r = await (client as TravelClient).bookings.revalidate({
        offer_id: (offer as FlightOffer).offer_id,
        currency: (offer as FlightOffer).price.currency,
      });
      if (!r.available) throw new Error('offer no longer available');
      return r.offer;
    },
    (o) => money(o.price.total_minor, o.price.currency),
  );
  await runner.run(
    'book',
    async () => {
      const o = checked as FlightOffer;
      // The key is derived from the tag: a CI retry of the same run replays instead of booking again.
      const result = await (client as TravelClient).bookings.create(
        {
          offer_id: o.offer_id,
          currency: o.price.currency,
          passengers: [
            {
              type: 'ADT',
              first_name: 'Smoke',
              last_name: 'Test',
              gender: 'F',
              date_of_birth: '1990-01-01',
              // Whichever supplier is cheapest: some airlines (Duffel's) require an identity document.
              nationality: 'GB',
              document: {
                type: 'passport',
                number: '502135326',
                expiry: '2034-01-01',
                issuing_country: 'GB',
              },
            },
          ],
          contact: { email: 'smoke@example.org', phone: '+447700900123' },
          payment_mode: 'PNR_FIRST',
          client_ref: smokeRef(options.tag),
        },
        { idempotencyKey: `smoke-${options.tag}-${o.offer_id}`.slice(0, 200) },
      );
      if (result.booking) {
        created.booking = result.booking;
        created.status = result.booking.status;
      }
      if (result.outcome !== 'confirmed') throw new Error(`booking ${result.booking_id} ${result.outcome}`);
      return result.booking as Booking;
    },
    (b) => `PNR ${b.pnr} booking ${b.booking_id}`,
  );
  const id = () => (created.booking as Booking).booking_id;
  await runner.run('authorize', async () => {
    const b = created.booking as Booking;
    await (client as TravelClient).payments.authorize(id(), {
      token: 'tok_sandbox_ok',
      currency: b.pricing.currency,
      amount_minor: b.pricing.total_minor,
    });
    created.authorized = true;
  });
  await runner.run('capture', async () => {
    await (client as TravelClient).payments.capture(id());
    created.captured = true;
  });
  await runner.run('ticket', async () => {
    await (client as TravelClient).tickets.issue(id(), { capture: false });
    created.ticketed = true;
  });
  await runner.run(
    'void quote',
    async () => {
      const quote = await (client as TravelClient).tickets.action(id(), 'void');
      if (!quote.permitted) throw new Error(`void not permitted: ${quote.message}`);
      return quote;
    },
    (q) => q.determination,
  );
  await runner.run(
    'void',
    async () => {
      const done = await (client as TravelClient).tickets.action(id(), 'void', { confirm: true });
      created.voided = true;
      created.status = done.booking_status;
      created.settledByVoid = settledBy(done);
      return done;
    },
    (d) =>
      [d.booking_status, d.payment ? `payment ${d.payment.action} ${d.payment.status}` : '']
        .filter(Boolean)
        .join(', '),
  );

  const cleanup = client && created.booking ? await cleanUp(client, created, clock) : [];
  const steps = [...runner.steps, ...cleanup];
  const ok = !runner.failed;
  output(
    ctx,
    {
      ok,
      tag: options.tag,
      client_ref: smokeRef(options.tag),
      route: `${options.origin}-${options.destination}`,
      date,
      booking_id: created.booking?.booking_id ?? null,
      pnr: created.booking?.pnr ?? null,
      steps,
    },
    () => {
      for (const line of stepTable(steps, ctx)) ctx.io.out(line);
    },
  );
  if (!ok) {
    const first = runner.steps.find((s) => s.result === 'failed');
    // Refused credentials (a revoked key, an ended session) are exit 3, as for every other command.
    const code = first && runner.errors.get(first) !== undefined ? exitCodeFor(runner.errors.get(first)) : 1;
    throw new CliError(
      `smoke failed at "${first?.step}": ${first?.detail}`,
      code === ExitCode.authentication ? ExitCode.authentication : ExitCode.failed,
    );
  }
}

const offerCount = (o: FlightOffer) => o.slices.map((s) => `${s.origin}-${s.destination}`).join(',');

/** Statuses the server will not cancel from: nothing left to undo at the supplier. */
const FINISHED = new Set(['cancelled', 'refunded', 'expired', 'pnr_failed']);

/**
 * Undo in reverse, best effort, reported: void the tickets (the booking is then cancelled at the supplier,
 * the money still captured, so refund it); otherwise void an authorization and cancel the booking. A
 * booking still live with a captured payment is only cancelled: the server's cancel refunds it, whereas a
 * refund first would leave a `refunded` booking that can no longer be cancelled (its PNR still held).
 */
async function cleanUp(client: TravelClient, created: Created, now: () => number): Promise<StepRecord[]> {
  const id = (created.booking as Booking).booking_id;
  let status = created.status ?? created.booking?.status;
  const records: StepRecord[] = [];
  const attempt = async (step: string, fn: () => Promise<unknown>) => {
    const started = now();
    try {
      const value = await fn();
      records.push({ step, result: 'ok', ms: now() - started, detail: '' });
      return value;
    } catch (error) {
      records.push(failure(step, now() - started, error));
      return undefined;
    }
  };
  if (created.ticketed && !created.voided) {
    const voided = (await attempt('cleanup: void tickets', () =>
      client.tickets.action(id, 'void', { confirm: true }),
    )) as (Parameters<typeof settledBy>[0] & { booking_status?: string }) | undefined;
    if (voided?.booking_status) status = voided.booking_status;
    if (voided) created.settledByVoid = settledBy(voided);
  }
  const live = !FINISHED.has(status ?? '');
  if (created.settledByVoid) {
    records.push({ step: 'cleanup: refund payment', result: 'ok', ms: 0, detail: created.settledByVoid });
  } else if (created.captured && !live) {
    await attempt('cleanup: refund payment', () => client.payments.refund(id, { reason: 'smoke cleanup' }));
  } else if (created.authorized && !created.captured) {
    await attempt('cleanup: void payment', () => client.payments.void(id));
  }
  if (live) await attempt('cleanup: cancel booking', () => client.bookings.cancel(id));
  else records.push({ step: 'cleanup: cancel booking', result: 'ok', ms: 0, detail: `already ${status}` });
  return records;
}

function stepTable(steps: StepRecord[], ctx: Ctx): string[] {
  const { c } = ctx.io;
  const mark = (r: StepRecord) =>
    r.result === 'ok' ? c.green('ok') : r.result === 'failed' ? c.red('FAILED') : c.dim('skipped');
  return renderTable(
    ['step', 'result', 'ms', 'detail'],
    steps.map((s) => [
      s.step,
      mark(s),
      String(s.ms),
      [s.detail, s.code ? `code=${s.code}` : '', s.request_id ? `request_id=${s.request_id}` : '']
        .filter(Boolean)
        .join('  '),
    ]),
  );
}

export async function runSmokeSweep(tag: string | undefined, all: boolean, ctx: Ctx): Promise<void> {
  if (!tag && !all) throw new UsageError('missing --tag (or --all for every smoke booking)');
  const client = await smokeClient(ctx);
  // A tag matches its own client_ref exactly: run `gh-7-1` must not sweep run `gh-7-10`.
  const ref = tag ? smokeRef(tag) : undefined;
  const mine = (clientRef: string | null | undefined) =>
    ref ? clientRef === ref : Boolean(clientRef?.startsWith('smoke:'));
  const rows = (await listBookings(ctx, { status: undefined, limit: 1000, search: ref ?? 'smoke:' })).filter(
    (b) => mine(b.client_ref),
  );
  const done = new Set(['cancelled', 'refunded', 'expired', 'pnr_failed']);
  const records: StepRecord[] = [];
  for (const b of rows.filter((r) => !done.has(r.status))) {
    const created: Created = {
      booking: b as Booking,
      status: b.status,
      ticketed: b.status === 'ticketed',
      captured: b.status === 'paid' || b.status === 'ticketed',
    };
    for (const r of await cleanUp(client, created, () => ctx.now().getTime()))
      records.push({ ...r, step: `${b.booking_id}: ${r.step.replace('cleanup: ', '')}` });
  }
  output(ctx, { tag: tag ?? null, found: rows.length, actions: records }, () => {
    ctx.io.err(`${rows.length} smoke bookings match ${ref ?? 'smoke:*'}`);
    for (const line of stepTable(records, ctx)) ctx.io.out(line);
  });
  if (records.some((r) => r.result === 'failed'))
    throw new CliError('some orphans could not be cleaned up', ExitCode.failed);
}

export function smokeCommand(deps: Deps): Command {
  const smoke = new Command('smoke')
    .description(
      'CI smoke booking: login, search, revalidate, book, authorize, capture, ticket, void (cleans up after itself)',
    )
    .option('--route <FROM-TO>', 'route to book (default LHR-DXB)')
    .option('--tag <tag>', 'run tag stored in client_ref (default: CI run id or a timestamp)')
    .option('--days <n>', 'depart this many days from today (default 30)')
    .option('--timeout <seconds>', 'search timeout (default 60)')
    .option(
      '--company-code <code>',
      "company code for the search (default: the account's; TRAVEL_COMPANY_CODE)",
    )
    .option('--user-code <code>', "user code for the search (default: the account's; TRAVEL_USER_CODE)")
    .action(
      action(deps, (ctx, raw: Parameters<typeof parseSmokeOptions>[0]) =>
        runSmoke(parseSmokeOptions(raw, ctx.env, ctx.now()), ctx),
      ),
    );
  smoke.addCommand(
    examples(
      new Command('sweep')
        .description('void or cancel smoke bookings a run left behind')
        .option('--tag <tag>', 'the run tag to clean up')
        .option('--all', 'every smoke booking, whatever its tag')
        .action(
          action(deps, (ctx, raw: { tag?: string; all?: boolean }) =>
            runSmokeSweep(raw.tag, Boolean(raw.all), ctx),
          ),
        ),
      'travel smoke sweep --tag gh-123456789-1',
    ),
  );
  return examples(
    smoke,
    'TRAVEL_BASE_URL=http://localhost:8080 TRAVEL_EMAIL=admin@sandbox.travel TRAVEL_PASSWORD=… travel smoke --json',
    'travel smoke --route LHR-JFK --tag nightly-42',
  );
}
