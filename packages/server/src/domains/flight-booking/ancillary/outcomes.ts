/**
 * What a paid service change (seat issuance, ancillary purchase, EMD issuance) records and answers, shared
 * by the request that gets the supplier's answer and the reconciliation job that reads it back after the
 * answer was lost (reconcile.ts), so both settle the same rows and answer the same body.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../../storage/schema.ts';
import type {
  AncillaryPurchaseProduct,
  IssuedEmd,
  PurchasedAncillary,
  SeatRequestResult,
} from '../../../suppliers/ports/flight.ts';
import { opsDb } from '../money-ops.ts';
import { recordServicing } from '../servicing-events.ts';
import type { BookingRow } from '../store.ts';
import { json } from '../tables.ts';
import { nextAncillaryStatus } from './state-machine.ts';
import { type AncillaryRow, ancillaryView, insertAncillary, updateAncillary } from './store.ts';

export type ServiceOpKind = 'seats_issue' | 'ancillary_purchase' | 'emd';

/** The supplier may have acted but its answer was lost: the op is answered 202 and settled by the job. */
export class ServicePending extends Error {}

export const SERVICE_PENDING_MESSAGE =
  'The supplier did not confirm the outcome (its answer was lost or timed out). Nothing is bought twice: the outcome is being read back from the supplier and will show on the booking within seconds. A retry with the same Idempotency-Key answers the settled result; do not retry with a new one.';

export const pendingServiceChange = (bookingId: number, operation: ServiceOpKind) => ({
  booking_id: bookingId,
  operation,
  outcome: 'pending' as const,
  message: SERVICE_PENDING_MESSAGE,
});

export const seatIssueBody = (
  bookingId: number,
  issue: boolean,
  priced: SeatRequestResult[],
  emds: IssuedEmd[],
) => ({
  booking_id: bookingId,
  priced,
  emds: issue ? emds : [],
  documents_issued: issue && emds.length > 0,
});

export const purchaseBody = (bookingId: number, rows: AncillaryRow[]) => ({
  booking_id: bookingId,
  tsm_references: rows.map((r) => r.tsm_reference),
  ancillaries: rows.map(ancillaryView),
});

/** The services a purchase created, held on the booking (one row per TSM). */
export async function recordPurchase(
  trx: Db,
  b: BookingRow,
  products: AncillaryPurchaseProduct[],
  bought: PurchasedAncillary[],
  now: Date,
): Promise<AncillaryRow[]> {
  const out: AncillaryRow[] = [];
  for (const [i, p] of bought.entries()) {
    const src = products.find((x) => x.code === p.code) ?? products[i] ?? products[0];
    out.push(
      await insertAncillary(
        trx,
        {
          booking_id: b.id,
          kind: src?.rfic === 'C' ? 'bag' : 'service',
          code: p.code,
          rfic: src?.rfic ?? '',
          rfisc: src?.rfisc ?? '',
          booking_method: src?.booking_method ?? '',
          provider: src?.provider ?? b.supplier,
          tsm_reference: p.tsm_reference,
          emd_number: null,
          status: 'held',
          passenger_ids: p.passenger_ids,
          segment_ids: p.segment_ids,
          price: p.price,
        },
        now,
      ),
    );
  }
  if (out.length > 0)
    await recordServicing(
      trx,
      b.id,
      { kind: 'ancillaries', action: 'purchased', ids: out.map((a) => a.id) },
      now,
    );
  return out;
}

/** Held services the supplier issued an EMD for become issued, with its number (one event for them). */
export async function recordEmds(trx: Db, held: AncillaryRow[], emds: IssuedEmd[], now: Date) {
  const issued: AncillaryRow[] = [];
  for (const a of held) {
    const e = emds.find((x) => x.tsm_reference === a.tsm_reference);
    const next = nextAncillaryStatus(a.status, 'issue');
    if (!e || !next) continue;
    await updateAncillary(trx, a.id, { status: next, emd_number: e.emd_number }, now);
    issued.push(a);
  }
  const [first] = issued;
  if (first)
    await recordServicing(
      trx,
      first.booking_id,
      { kind: 'emds', action: 'issued', ids: issued.map((a) => a.id) },
      now,
    );
}

/** Replaces the op's detail (what the job needs to read the outcome back). */
export async function patchOpDetail(db: Db, opId: number, detail: Record<string, unknown>) {
  await opsDb(db)
    .updateTable('booking_money_ops')
    .set({ detail: json(detail) })
    .where('id', '=', opId)
    .execute();
}

/**
 * The contract caps an ancillary code at 10 characters (an airline service code), but some suppliers
 * identify services by long ids (Duffel `ase_…`). Such ids are shown as a stable hashed alias and mapped
 * back through the supplier's catalogue at purchase.
 */
const ALIAS = /^~[0-9a-z]{9}$/;
export const alias = (code: string) =>
  code.length <= 10 ? code : `~${createHash('sha1').update(code).digest('hex').slice(0, 9)}`;
export const isAlias = (code: string) => ALIAS.test(code);
