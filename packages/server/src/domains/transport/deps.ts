import type { Clock } from '../../internal/clock.ts';
import type { Logger } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import type { TransferSupplier } from '../../suppliers/ports/transfer.ts';

/** What the transport domain is built from; `SupplierRegistry` satisfies `suppliers`. */
export interface TransportDeps {
  db: Db;
  clock: Clock;
  suppliers: { transfer(name: string): TransferSupplier | undefined };
  logger?: Logger;
  /** When the safety-net reconciliation of a new booking runs if the request never settles it. */
  reconcileAfterMs?: number;
}
