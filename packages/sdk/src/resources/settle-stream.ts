/**
 * Waits for a 502 booking to settle through the company's event stream instead of polling it: the stream
 * is opened for this one booking (`resource_type`, `resource_id`); once the server has answered (it has
 * subscribed), one read of the booking catches a settlement that came before; then the first event
 * about the booking whose status is settled is followed by one more read, the result. Bounded by the
 * deadline. When the stream cannot be opened or breaks (a token the feed refuses, an older server, a
 * proxy that cuts SSE), the booking is polled as before for the time left.
 */
import {
  type PendingPollOptions,
  type PendingResult,
  pollUntilSettled,
  type SettleRules,
  settleOutcome,
} from '../core/pending.ts';
import { streamEvents } from '../core/stream.ts';
import type { ClientContext } from './context.ts';

/** How long the stream may take to answer before the polling takes over. */
const OPEN_MS = 10_000;

interface FeedMessage {
  event: string;
  data?: { data?: { status?: unknown } };
}

/**
 * @example
 * const r = await waitUntilSettled(ctx, (id) => client.bookings.get(id), 42, 'booking', FLIGHT_BOOKING_RULES);
 */
export async function waitUntilSettled<TBooking extends { status?: unknown }>(
  ctx: ClientContext,
  get: (bookingId: number, signal?: AbortSignal) => Promise<TBooking>,
  bookingId: number,
  resourceType: string,
  rules: SettleRules,
  options: PendingPollOptions = {},
): Promise<PendingResult<TBooking>> {
  const { now, sleep } = ctx.poll;
  const budget = options.deadlineMs ?? 60_000;
  if (budget <= 0) return pollUntilSettled(get, bookingId, rules, ctx.poll, options);
  const deadline = now() + budget;
  const poll = () =>
    pollUntilSettled(get, bookingId, rules, ctx.poll, {
      ...options,
      deadlineMs: Math.max(0, deadline - now()),
    });
  const outer = options.signal;
  const stop = new AbortController();
  const onAbort = () => stop.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const query = new URLSearchParams({ resource_type: resourceType, resource_id: String(bookingId) });
  const messages = streamEvents<FeedMessage>(
    {
      ...ctx.stream,
      terminalEvent: 'done',
      transport: async (request, o) => {
        const response = await ctx.stream.transport(request, o);
        if (response.ok) opened();
        return response;
      },
    },
    `${ctx.baseUrl}/api/v1/events/stream?${query}`,
    // One attempt: a stream that is not there costs no retry waits before the polling takes over.
    { signal: stop.signal, maxRetries: 0, maxReconnects: 2 },
  );
  const settled = (async () => {
    for await (const m of messages)
      if (m.event === 'event' && settleOutcome(m.data?.data?.status, rules) !== 'pending') return;
    throw new Error('the event stream ended');
  })();
  settled.catch(() => {});
  const read = async (): Promise<PendingResult<TBooking>> => {
    const booking = await get(bookingId, outer);
    return { outcome: settleOutcome(booking.status, rules), booking_id: bookingId, booking };
  };
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  try {
    const opening = await Promise.race([
      open.then(() => 'open' as const),
      settled.then(
        () => 'event' as const,
        () => 'broken' as const,
      ),
      // A stream whose answer does not come (a proxy buffering it) is not waited on for long.
      new Promise<'slow'>((resolve) => {
        openTimer = setTimeout(() => resolve('slow'), Math.min(OPEN_MS, Math.max(0, deadline - now())));
      }),
    ]);
    clearTimeout(openTimer);
    if (outer?.aborted) throw outer.reason;
    if (opening === 'slow') stop.abort();
    if (opening === 'broken' || opening === 'slow') return await poll();
    if (opening === 'event') return await read();
    const first = await read();
    if (first.outcome !== 'pending') return first;
    const left = Math.max(0, deadline - now());
    const ended = await Promise.race([
      settled.then(
        () => 'event' as const,
        () => 'broken' as const,
      ),
      sleep(left, stop.signal).then(
        () => 'deadline' as const,
        () => 'aborted' as const,
      ),
    ]);
    if (outer?.aborted) throw outer.reason;
    if (ended === 'broken') return await poll();
    return await read();
  } finally {
    clearTimeout(openTimer);
    stop.abort();
    outer?.removeEventListener('abort', onAbort);
  }
}
