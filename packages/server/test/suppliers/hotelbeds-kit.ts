/**
 * The Hotelbeds adapters (hotel and transfers) against their emulator in-process (msw/node): one clock the
 * test moves, the server's lifecycle, and an adapter factory with the sandbox credentials.
 */
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { kindOf } from './flight-conformance-kit.ts';

interface Emulator {
  handlers: HttpHandler[];
  state: { faults: { clear(): void; fail(status: number): void; reset(): void } };
}

interface AdapterConfig {
  baseUrl: string;
  apiKey: string;
  secret: string;
  now: () => number;
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
}

export function hotelbedsRig<E extends Emulator, C extends AdapterConfig, A>(o: {
  baseUrl: string;
  seed: number;
  emulator: (options: { baseUrl: string; clock: () => number; latencyMs: number; seed: number }) => E;
  adapter: (config: C) => A;
}) {
  const time = { now: Date.parse('2026-06-01T08:00:00Z') };
  const clock = () => time.now;
  const emu = o.emulator({ baseUrl: o.baseUrl, clock, latencyMs: 0, seed: o.seed });
  const server = setupServer(...emu.handlers);
  const make = (extra: Partial<C> = {}) =>
    o.adapter({
      baseUrl: o.baseUrl,
      apiKey: 'hb_test_api_key',
      secret: 'hb_test_secret',
      now: clock,
      timeoutMs: 2_000,
      fetch: (i: Parameters<typeof fetch>[0], init?: RequestInit) => globalThis.fetch(i, init),
      ...extra,
    } as C);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => emu.state.faults.clear());
  afterAll(() => server.close());
  /** What a call answers under a `status` 5xx knob, then under a connection reset. */
  const underFaults = async (status: number, call: () => Promise<unknown>) => {
    emu.state.faults.fail(status);
    const failed = await kindOf(call());
    emu.state.faults.reset();
    return [failed, await kindOf(call())];
  };
  return { emu, make, adapter: make(), time, underFaults };
}
