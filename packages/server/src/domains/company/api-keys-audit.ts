/**
 * Every use of an API key that creates or moves money is audited with the key id (issue 16). The row is
 * written BEFORE the operation runs (its own small transaction), so it exists whenever the effect may:
 * a crash mid-call, a lost supplier answer or a 502 pending booking still leaves the key's trace. The
 * domains' own audit rows written during the call (booking created, cancelled…) carry `api_key_id` too
 * (`writeAudit` reads it from the caller). An idempotent replay runs no handler and moves no money, so
 * it writes nothing.
 */
import { writeAudit } from '../../audit/audit-log.ts';
import type { HandlerTable } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';

/** Operations that create a priced booking or move money or ticket value. */
export const MONEY_OPERATIONS: ReadonlySet<string> = new Set([
  'createPnr',
  'cancelBooking',
  'authorizePayment',
  'capturePayment',
  'voidPayment',
  'refundPayment',
  'issueTickets',
  'performTicketAction',
  'issueSeats',
  'purchaseAncillaries',
  'issueAncillaryEmds',
  'cancelAncillaries',
  'bookHotel',
  'cancelHotelBooking',
  'bookTransport',
  'cancelTransportBooking',
]);

/** Wraps the money operations' handlers: a key-authenticated call writes its audit row first. */
export function auditApiKeyMoneyUse(routes: HandlerTable, db: Db): HandlerTable {
  const out: HandlerTable = { ...routes };
  for (const id of MONEY_OPERATIONS) {
    const handler = routes[id];
    if (!handler) continue;
    out[id] = async (ctx) => {
      const keyId = ctx.auth?.apiKeyId;
      if (keyId) {
        await writeAudit(db, ctx, {
          entity: 'api_key',
          entityId: keyId,
          action: 'money_operation',
          changes: {
            operation_id: id,
            method: ctx.method,
            path: ctx.path,
            params: ctx.params,
            idempotency_key: ctx.headers['idempotency-key'] ?? null,
          },
          companyId: ctx.auth?.companyId ?? null,
        });
      }
      return handler(ctx);
    };
  }
  return out;
}
