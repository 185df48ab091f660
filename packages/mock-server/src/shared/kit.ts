/**
 * Small emulator toolkit: pick/int over a seeded stream (from `random.ts`, the mock server's one PRNG),
 * latency and fault knobs, shared by the Hotelbeds (hotels and transfers) and Mystifly emulators.
 */

import { HttpResponse } from 'msw';
import { minorUnits, moneyText } from './money.ts';
import type { EmulatorOptions } from './options.ts';
import { hashString, mulberry32 } from './random.ts';

export function pick<T>(r: () => number, items: readonly T[]): T {
  const item = items[Math.floor(r() * items.length)];
  if (item === undefined) throw new Error('pick from empty list');
  return item;
}

export function int(r: () => number, min: number, max: number): number {
  return min + Math.floor(r() * (max - min + 1));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(resolve, ms);
    // Release the handler as soon as the caller gives up, so tests do not leave timers behind.
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Latency per request; ranges are sampled from a counter so runs are reproducible. */
export function latencyOf(options: EmulatorOptions, counter: number, fallback: number): number {
  const l = options.latencyMs ?? fallback;
  if (typeof l === 'number') return l;
  const r = mulberry32(hashString(`${options.seed ?? 42}:latency:${counter}`));
  return int(r, l.min, l.max);
}

interface Fault {
  kind: 'status' | 'reset' | 'hang';
  status: number;
  remaining: number;
  path: RegExp | undefined;
}

/**
 * Instance fault knobs a test arms before a call: the next `count` matching requests answer with a
 * status (5xx), a connection reset (fetch rejects) or hang until the caller aborts.
 */
export class Faults {
  private readonly queue: Fault[] = [];
  fail(status: number, opts: { count?: number; path?: RegExp } = {}): void {
    this.queue.push({ kind: 'status', status, remaining: opts.count ?? 1, path: opts.path });
  }
  reset(opts: { count?: number; path?: RegExp } = {}): void {
    this.queue.push({ kind: 'reset', status: 0, remaining: opts.count ?? 1, path: opts.path });
  }
  hang(opts: { count?: number; path?: RegExp } = {}): void {
    this.queue.push({ kind: 'hang', status: 0, remaining: opts.count ?? 1, path: opts.path });
  }
  clear(): void {
    this.queue.length = 0;
  }
  /** Consumes and returns the fault for this request path, if one is armed. */
  take(path: string): Fault | undefined {
    const f = this.queue.find((q) => q.remaining > 0 && (!q.path || q.path.test(path)));
    if (!f) return undefined;
    f.remaining -= 1;
    return f;
  }
}

/** Renders an armed fault; `undefined` when none applies. */
export async function applyFault(
  faults: Faults,
  request: Request,
  statusBody: (status: number) => Response,
): Promise<Response | undefined> {
  const fault = faults.take(new URL(request.url).pathname);
  if (!fault) return undefined;
  if (fault.kind === 'reset') return HttpResponse.error();
  if (fault.kind === 'hang') {
    await sleep(120_000, request.signal);
    return HttpResponse.error();
  }
  return statusBody(fault.status);
}

/** Fixed-point money text as suppliers send it ("123.45"), from minor units. */
export function decimals(currency: string): number {
  return minorUnits(currency);
}
export { moneyText };
