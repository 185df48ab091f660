/**
 * Which part of each emulator's state survives a restart (`startMockServers({ stateDir })`): every
 * record a client could come back for (orders, PNRs, tickets, payment intents, hotel and transfer
 * bookings, offers and quotes still bookable, access tokens) and every counter behind an id, a PNR or a
 * ticket number, so none is handed out twice. Not durable: armed faults and knobs (a test's business),
 * and the request log. The maps are swapped for TrackedMaps before the first request.
 */
import type { DurableSpec } from './shared/journal.ts';
import { TrackedMap } from './shared/tracked-map.ts';
import type { AmadeusState } from './suppliers/amadeus/state.ts';
import type { DuffelState } from './suppliers/duffel/state.ts';
import type { HotelbedsState } from './suppliers/hotelbeds/index.ts';
import type { HotelbedsTransfersState } from './suppliers/hotelbeds-transfers/index.ts';
import type { MystiflyState } from './suppliers/mystifly/state.ts';
import type { StripeState } from './suppliers/stripe/state.ts';

type Supplier = 'amadeus' | 'duffel' | 'mystifly' | 'hotelbeds' | 'hotelbeds-transfers' | 'stripe';

/** Replaces `state[field]` (a Map) by a TrackedMap holding the same entries; returns it by name. */
function track<S, F extends keyof S & string>(state: S, fields: readonly F[]): DurableSpec['maps'] {
  const maps: DurableSpec['maps'] = {};
  for (const field of fields) {
    const tracked = new TrackedMap(state[field] as Map<unknown, unknown>);
    (state as Record<string, unknown>)[field] = tracked;
    maps[field] = tracked;
  }
  return maps;
}

export function durableSpec(supplier: Supplier, state: unknown): DurableSpec {
  switch (supplier) {
    case 'amadeus': {
      const s = state as AmadeusState;
      return { maps: track(s, ['tokens', 'orders', 'transferOrders', 'transferOffers', 'counters']) };
    }
    case 'duffel': {
      const s = state as DuffelState;
      const fields = (Object.keys(s) as (keyof DuffelState & string)[]).filter((k) => s[k] instanceof Map);
      return { maps: track(s, fields) };
    }
    case 'mystifly': {
      const s = state as MystiflyState;
      return {
        maps: track(s, ['sessions', 'bookings']),
        scalars: {
          counter: {
            get: () => s.counter,
            set: (v) => {
              s.counter = Number(v);
            },
          },
        },
      };
    }
    case 'hotelbeds': {
      const s = state as HotelbedsState;
      return {
        maps: track(s, ['bookings']),
        scalars: {
          checked: {
            get: () => [...s.checked],
            set: (v) => {
              for (const key of v as string[]) s.checked.add(key);
            },
          },
        },
      };
    }
    case 'hotelbeds-transfers': {
      const s = state as HotelbedsTransfersState;
      return { maps: track(s, ['bookings', 'searches']) };
    }
    case 'stripe': {
      const s = state as StripeState;
      const maps = track(s, [
        'paymentIntents',
        'paymentMethods',
        'charges',
        'refunds',
        'idempotency',
        'methodSources',
      ]);
      return {
        maps,
        scalars: { ids: { get: () => s.ids, set: (v) => s.restoreIds(Number(v)) } },
        afterLoad: () => {
          // A request that was running when the process died never answered: its key is free again,
          // as on Stripe when a request fails before completing.
          for (const [key, record] of s.idempotency) if (record.response === null) s.idempotency.delete(key);
        },
      };
    }
  }
}
