import type { Clock } from '../../internal/clock.ts';
import type { Logger } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import type { HotelSupplier } from '../../suppliers/ports/hotel.ts';

/** What the hotel domain is built from; `SupplierRegistry` satisfies `suppliers`. */
export interface HotelDeps {
  db: Db;
  clock: Clock;
  suppliers: { hotel(name: string): HotelSupplier | undefined };
  logger?: Logger;
  /** When the safety-net reconciliation of a new booking runs if the request never settles it. */
  reconcileAfterMs?: number;
}
