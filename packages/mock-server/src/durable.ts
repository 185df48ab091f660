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

/** How long past its expiry a search artefact (offer, quote, session, token) is still kept. */
const GRACE_MS = 3_600_000;
/** Stripe keeps an idempotency key 24 hours. */
const STRIPE_KEY_MS = 24 * 3_600_000;

/** Deletes the entries `gone` says nobody can come back for. */
function dropWhere<V>(map: Map<string, V>, gone: (v: V) => boolean): void {
  for (const [k, v] of map) if (gone(v)) map.delete(k);
}

const expired = (iso: unknown, now: number): boolean =>
  typeof iso === 'string' && Date.parse(iso) + GRACE_MS < now;

/** Duffel: expired offers (unless ordered), their requests and services, expired Stays results and quotes. */
function pruneDuffel(s: DuffelState): void {
  const now = s.now();
  const ordered = new Set([...s.orders.values()].map((o) => o.offerId));
  dropWhere(s.offers, (r) => !ordered.has(r.offer?.id) && expired(r.offer?.expires_at, now));
  dropWhere(
    s.offerRequests,
    (req) => !(req.offers as { id: string }[] | undefined)?.some((o) => s.offers.has(o.id)),
  );
  dropWhere(s.services, (svc) => !s.offers.has(svc.offerId) && !ordered.has(svc.offerId));
  dropWhere(s.staysSearchResults, (r) => expired(r.expires_at, now));
  dropWhere(s.staysRates, (r) => expired(r.rate?.expires_at, now));
  dropWhere(s.staysQuotes, (q) => expired(q.expires_at, now));
}

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
      return {
        maps: track(s, ['tokens', 'orders', 'transferOrders', 'transferOffers', 'counters']),
        prune: () => {
          const now = s.now();
          dropWhere(s.tokens, (t) => t.expiresAt + GRACE_MS < now);
          dropWhere(s.transferOffers, (o) => o.expiresAt + GRACE_MS < now);
        },
      };
    }
    case 'duffel': {
      const s = state as DuffelState;
      const fields = (Object.keys(s) as (keyof DuffelState & string)[]).filter((k) => s[k] instanceof Map);
      return { maps: track(s, fields), prune: () => pruneDuffel(s) };
    }
    case 'mystifly': {
      const s = state as MystiflyState;
      return {
        maps: track(s, ['sessions', 'bookings']),
        prune: () => dropWhere(s.sessions, (x) => x.expiresAt + GRACE_MS < Date.now()),
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
        prune: () => dropWhere(s.idempotency, (r) => r.createdAt + STRIPE_KEY_MS < Date.now()),
        afterLoad: () => {
          // A request that was running when the process died never answered: its key is free again,
          // as on Stripe when a request fails before completing.
          for (const [key, record] of s.idempotency) if (record.response === null) s.idempotency.delete(key);
        },
      };
    }
  }
}
