import type { Clock } from '../../internal/clock.ts';
import type { Logger } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import type { HotelSupplier, TransferSupplier } from '../../suppliers/ports.ts';

/** What the reservation domain is built from; `SupplierRegistry` satisfies `suppliers`. */
export interface ReservationDomainDeps {
  db: Db;
  clock: Clock;
  suppliers: {
    hotel(name: string): HotelSupplier | undefined;
    transfer(name: string): TransferSupplier | undefined;
  };
  logger?: Logger;
  /** When the safety-net reconciliation of a new booking runs if the request never settles it. */
  reconcileAfterMs?: number;
}
