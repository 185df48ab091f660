/** The company's event feed (`GET /api/v1/events`, `GET /api/v1/events/stream`). */
import type { components } from '@travel/contract';
import { unwrap } from '../core/result.ts';
import { type StreamOptions, streamEvents } from '../core/stream.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { QueryOf } from './types.ts';

type Event = components['schemas']['Event'];
/** An SSE message of the event stream: `event` (an Event as data), or `heartbeat` when asked for. */
export interface EventStreamMessage {
  event: string;
  id?: string;
  data: Event;
}

/**
 * The `events` namespace.
 *
 * @example
 * for await (const e of travel.events.list({ type: 'booking.pending_settled' })) console.log(e.id);
 * for await (const m of travel.events.stream()) console.log(m.data.type);
 */
export function eventsResource(ctx: ClientContext) {
  const { raw } = ctx;
  const page = (query: QueryOf<'/api/v1/events', 'get'>, options?: RequestOptions) =>
    unwrap(raw.GET('/api/v1/events', { params: { query }, ...ctx.init(options) }));
  return {
    /** One page, oldest first: `starting_after` the last id you have. */
    page,
    /** Every event after `starting_after` (or from the first), page by page, as one async iterable. */
    async *list(
      query: QueryOf<'/api/v1/events', 'get'> = {},
      options?: RequestOptions,
    ): AsyncGenerator<Event> {
      let after = query.starting_after;
      for (;;) {
        const p = await page({ ...query, ...(after ? { starting_after: after } : {}) }, options);
        for (const e of p.data) yield e;
        const last = p.data.at(-1);
        if (!p.has_more || !last) return;
        after = last.id;
      }
    },
    /**
     * The live feed; reconnects with `Last-Event-ID` across drops and resumes where it left off (pass
     * `lastEventId` to resume after a restart). It never ends by itself: stop it with `signal`.
     */
    stream(
      query: QueryOf<'/api/v1/events/stream', 'get'> = {},
      options: StreamOptions = {},
    ): AsyncGenerator<EventStreamMessage, void, undefined> {
      const qs = new URLSearchParams(
        Object.entries(query).filter((kv): kv is [string, string] => typeof kv[1] === 'string'),
      ).toString();
      return streamEvents<EventStreamMessage>(
        // The feed has no terminal event: the name below is never sent.
        { ...ctx.stream, terminalEvent: 'done' },
        `${ctx.baseUrl}/api/v1/events/stream${qs ? `?${qs}` : ''}`,
        options,
      );
    },
  };
}
