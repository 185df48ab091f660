/**
 * GET /api/v1/flight/offers/{offer_id} (`getFlightOffer`, a contract addition): the offer as the caller's
 * search stored it, so a client holding only an offer_id learns its price, currency and booking
 * requirements before booking. Scoped as every offer lookup is (search/resolve-offer.ts): another user's
 * or company's offer is 404, as a missing one is.
 *
 * METHOD /path → operationId:
 *   GET /api/v1/flight/offers/{offer_id} → getFlightOffer
 */
import { unauthorized } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import { resolveFlightOffer } from '../../search/resolve-offer.ts';
import type { SearchService } from '../../search/service.ts';
import { requirementsOf } from '../../suppliers/requirements.ts';

export function offerRoutes(s: Pick<SearchService, 'db' | 'clock'>): Routes {
  return {
    getFlightOffer: async (ctx) => {
      if (!ctx.auth) throw unauthorized('not_authenticated', 'Authentication required.');
      const r = await resolveFlightOffer(s.db, String(ctx.params.offer_id), ctx.auth, s.clock);
      // Offers stored before adapters stated requirements get the adapter defaults.
      const booking_requirements = requirementsOf(r.supplierOffer);
      return { status: 200, body: { ...r.offer, booking_requirements } };
    },
  };
}
