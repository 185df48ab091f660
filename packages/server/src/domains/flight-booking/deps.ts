import type { Clock } from '../../internal/clock.ts';
import type { Logger } from '../../kernel/types.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { SupplierCallStore } from '../../observability/supplier-call-store.ts';
import type { Installation } from '../../storage/installation.ts';
import type { Db } from '../../storage/schema.ts';
import type { BookingSuppliers } from './suppliers.ts';

/** What the booking, payment, ticketing and ancillary domains are built from. */
export interface BookingDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  suppliers: BookingSuppliers;
  logger?: Logger;
  /** The supplier calls recorded per booking (its timeline); absent in worlds built without a runtime. */
  supplierCalls?: SupplierCallStore;
  /** This database's installation: prefixes the payment provider's idempotency keys (payment/psp-keys.ts). */
  installation?: Installation;
}
