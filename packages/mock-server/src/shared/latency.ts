import type { EmulatorOptions } from './options.ts';
import { hashString, mulberry32 } from './random.ts';

/**
 * The delay an emulator adds before answering. A range is sampled deterministically from `key` (e.g. the
 * request path) so a benchmark sees the same latency profile on every run.
 */
export function latencyFor(latency: EmulatorOptions['latencyMs'], key = ''): number {
  if (latency === undefined) return 0;
  if (typeof latency === 'number') return Math.max(0, latency);
  const { min, max } = latency;
  if (max <= min) return Math.max(0, min);
  return Math.round(min + mulberry32(hashString(key))() * (max - min));
}

/** Sleep for the configured latency. Resolves at once when latency is 0 (the test default). */
export async function applyLatency(options: EmulatorOptions, key = ''): Promise<void> {
  const ms = latencyFor(options.latencyMs, key);
  if (ms > 0) await sleep(ms);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
