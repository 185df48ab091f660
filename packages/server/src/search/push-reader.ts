import { MAX_UNREAD_BYTES, type SseWriter, sseBytes } from '../kernel/sse.ts';
import { type FeedHandle, type FeedSubscriber, firstAfter, type LogEvent, subscribe } from './event-log.ts';
import {
  burstBytes,
  followOpts,
  heartbeatBytes,
  messageOf,
  type ReaderDeps,
  type StreamNames,
} from './reader-feed.ts';

export function pushEvents(
  deps: ReaderDeps,
  searchId: string,
  after: number,
  names: StreamNames,
  out: SseWriter,
): { stop(): void } {
  const reader = new PushReader(deps, after, names, out);
  reader.handle = subscribe(followOpts(deps, searchId, undefined), reader);
  reader.handle.ready.then(
    () => reader.start(),
    (err: unknown) => reader.failed(err),
  );
  return reader;
}

/**
 * One reader of the offer stream on the node path: its place in the feed and its writer. A class, so an
 * open stream is one small object (methods shared), not a dozen closures.
 */
class PushReader implements FeedSubscriber {
  handle!: FeedHandle;
  /** Index in the feed's events of the next one to take. */
  next = 0;
  ready = false;
  stopped = false;
  /** Something was written since the feed's last heartbeat tick. */
  sent = false;
  /** Heartbeat ticks seen while paused (-1: not paused). */
  pausedTicks = -1;
  /** A `drain` listener is waiting (at most one per stream, however often it pauses). */
  drainArmed = false;
  readonly deps: ReaderDeps;
  readonly after: number;
  readonly names: StreamNames;
  readonly out: SseWriter;

  constructor(deps: ReaderDeps, after: number, names: StreamNames, out: SseWriter) {
    this.deps = deps;
    this.after = after;
    this.names = names;
    this.out = out;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.handle.close();
  }

  /** The feed has read the log: a reader resuming at or after `done` gets `done` alone; others catch up. */
  start(): void {
    if (this.stopped) return;
    this.ready = true;
    const events = this.handle.feed.events;
    const last = events.at(-1);
    if (last?.event === 'done' && last.seq <= this.after) {
      this.out.write(sseBytes(messageOf(last, 'done')));
      this.stop();
      this.out.end();
      return;
    }
    this.next = firstAfter(events, this.after);
    this.wake();
  }

  failed(err: unknown): void {
    if (this.stopped) return;
    this.stop();
    this.out.fail(err);
  }

  /** New events (or a failed read): write what the client can take now. */
  wake(): void {
    const events = this.handle.feed.events;
    while (!this.stopped && this.ready && this.pausedTicks < 0 && this.next < events.length) {
      // What the reader takes now leaves in one write (one syscall), ended with it when it holds `done`.
      this.out.cork();
      try {
        if (this.take(events)) {
          this.out.end();
          return;
        }
      } finally {
        this.out.uncork();
      }
      // Corked bytes count as unread until the uncork hands them to the socket, which may take them all.
      if (this.pausedTicks >= 0 && this.out.buffered <= MAX_UNREAD_BYTES) this.pausedTicks = -1;
    }
    const failure = this.handle.feed.failure;
    if (!this.stopped && this.ready && this.next >= events.length && failure !== undefined) {
      this.failed(failure);
    }
  }

  /**
   * Writes, as one piece, the events from its place up to `done` or up to the one that takes it past
   * MAX_UNREAD_BYTES (then it pauses); true when that included `done` (the caller ends the stream).
   */
  take(events: readonly LogEvent[]): boolean {
    const from = this.next;
    let to = from;
    let unread = this.out.buffered;
    let named = false;
    let done = false;
    while (to < events.length) {
      const item = events[to++] as LogEvent;
      const name = item.event === 'done' ? 'done' : this.names[item.event];
      if (name) {
        unread += sseBytes(messageOf(item, name)).byteLength;
        named = true;
      }
      if (item.event === 'done') {
        done = true;
        break;
      }
      if (unread > MAX_UNREAD_BYTES) break;
    }
    this.next = to;
    if (named) {
      this.out.write(burstBytes(events, from, to, this.names));
      this.sent = true;
    }
    if (done) {
      this.stop();
      return true;
    }
    if (this.out.buffered > MAX_UNREAD_BYTES) {
      this.pausedTicks = 0;
      if (!this.drainArmed) {
        this.drainArmed = true;
        this.out.onDrain(() => this.resume());
      }
    }
    return false;
  }

  resume(): void {
    this.drainArmed = false;
    if (this.pausedTicks < 0) return;
    this.pausedTicks = -1;
    this.wake();
  }

  /** The feed's heartbeat tick: a heartbeat if nothing was sent since the last one; a reader still
   * behind a whole interval after the previous tick found it behind is cut. */
  tick(): void {
    if (this.stopped) return;
    if (this.pausedTicks >= 0) {
      if (++this.pausedTicks >= 2) {
        this.stop();
        this.out.cut();
      }
      return;
    }
    if (!this.sent) this.out.write(heartbeatBytes(this.deps.clock));
    this.sent = false;
  }
}
