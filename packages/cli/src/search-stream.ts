/**
 * Following a hotel or transfer offer stream: the same shape as flights without per-supplier done events,
 * so a line per supplier counts offers and everything turns done (or timed out) at the end.
 */

import type { OutputMode } from './commands/search-flight.ts';
import type { Ctx } from './context.ts';

export interface StreamedOffers<TOffer> {
  status: string;
  offers: TOffer[];
}

export async function followOfferStream<TOffer extends { supplier: string }>(
  ctx: Ctx,
  events: AsyncIterable<{ event: string; data?: unknown }>,
  offerEvent: string,
  suppliers: readonly string[],
  mode: OutputMode,
  timeoutSeconds: number,
): Promise<StreamedOffers<TOffer>> {
  const board = mode === 'interactive' ? ctx.io.statusBoard([...suppliers]) : undefined;
  const counts = new Map<string, number>();
  const offers: TOffer[] = [];
  let status = 'timed_out';
  try {
    for await (const event of events) {
      if (mode === 'ndjson') ctx.io.out(JSON.stringify(event));
      if (event.event === offerEvent) {
        const offer = (event.data as { offer: TOffer }).offer;
        offers.push(offer);
        const n = (counts.get(offer.supplier) ?? 0) + 1;
        counts.set(offer.supplier, n);
        board?.update(offer.supplier, `${n} offers`);
      } else if (event.event === 'done') {
        status = (event.data as { status: string }).status;
      }
    }
  } catch (error) {
    if (!(error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))) {
      board?.stop();
      throw error;
    }
    ctx.io.err(`search still running after ${timeoutSeconds}s; showing what arrived`);
  }
  for (const s of suppliers) {
    const n = counts.get(s) ?? 0;
    board?.update(
      s,
      `${status === 'timed_out' ? 'timed out' : 'done'} · ${n} offers`,
      status === 'completed' ? 'done' : 'warn',
    );
  }
  board?.stop();
  return { status, offers };
}
