import type { Clock } from '../internal/clock.ts';
import { sharedSseMessage, sseBytes } from '../kernel/sse.ts';
import type { SseMessage } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import { type LogEvent, type LogEventName, realTimers, type Timers } from './event-log.ts';
import type { SearchNotifier } from './notifier.ts';

// What every reader of a search shares (readers.ts, push-reader.ts): its deps, how it follows the log,
// and the messages and bytes made once per event for all of them.

export interface ReaderDeps {
  db: Db;
  notifier: SearchNotifier;
  clock: Clock;
  heartbeatMs: number;
  pollMs: number;
  timers?: Timers;
}

/** How one stream names the log's events; a log event without a name here is not part of that stream. */
export type StreamNames = Partial<Record<LogEventName, string>>;

export const heartbeat = (clock: Clock): SseMessage => ({
  event: 'heartbeat',
  data: { ts: clock.now().toISOString() },
});

export function followOpts(deps: ReaderDeps, searchId: string, signal: AbortSignal | undefined) {
  return {
    db: deps.db,
    notifier: deps.notifier,
    searchId,
    heartbeatMs: deps.heartbeatMs,
    pollMs: deps.pollMs,
    timers: deps.timers ?? realTimers,
    ...(signal ? { signal } : {}),
  };
}

/** The stream message of a log event under a stream's name: made once per event and name, shared by every
 * reader of the search (the kernel then encodes each message object once, not once per stream). */
const messages = new WeakMap<LogEvent, { name: string; message: SseMessage }>();
export function messageOf(item: LogEvent, name: string): SseMessage {
  const hit = messages.get(item);
  if (hit?.name === name) return hit.message;
  const message = sharedSseMessage({ id: String(item.seq), event: name, data: item.data });
  messages.set(item, { name, message });
  return message;
}

/** The last burst made of each feed's events: what readers at one place in it take, made once per pass. */
const bursts = new WeakMap<
  readonly LogEvent[],
  { from: number; to: number; names: StreamNames; bytes: Uint8Array }
>();

/**
 * The bytes of `events[from, to)` under a stream's names, as one piece. Every reader of a search at the
 * same place (all of them, when they keep up) takes the same piece: it is made once, not once per reader.
 */
export function burstBytes(
  events: readonly LogEvent[],
  from: number,
  to: number,
  names: StreamNames,
): Uint8Array {
  const hit = bursts.get(events);
  if (hit && hit.from === from && hit.to === to && hit.names === names) return hit.bytes;
  const parts: Uint8Array[] = [];
  for (let i = from; i < to; i++) {
    const item = events[i] as LogEvent;
    const name = item.event === 'done' ? 'done' : names[item.event];
    if (name) parts.push(sseBytes(messageOf(item, name)));
  }
  const bytes = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
  bursts.set(events, { from, to, names, bytes });
  return bytes;
}

/** One heartbeat message per clock millisecond, whatever the number of streams it goes to. */
let lastBeat: { at: number; bytes: Uint8Array } | undefined;
export function heartbeatBytes(clock: Clock): Uint8Array {
  const now = clock.now();
  const at = now.getTime();
  if (lastBeat?.at !== at) {
    lastBeat = { at, bytes: sseBytes({ event: 'heartbeat', data: { ts: now.toISOString() } }) };
  }
  return lastBeat.bytes;
}
