/**
 * A flight booking's story (`GET /admin/bookings/{id}/timeline`, `GET /bookings/{id}/timeline`): its
 * state changes (the audit trail), every supplier and payment provider call made for it (the supplier
 * call store, with redacted excerpts) and its money movements (payment transactions), oldest first.
 * Entries at the same instant keep the order they were written in within their kind.
 */
import type { components } from '@travel/contract';
import { redacted } from '../../observability/redact.ts';
import type { StoredSupplierCall } from '../../observability/supplier-call-store.ts';
import type { BookingDeps } from './deps.ts';
import { transactionsOf } from './payment/index.ts';
import type { BookingRow } from './store.ts';
import { parseJson } from './tables.ts';

type Timeline = components['schemas']['BookingTimeline'];
type Entry = components['schemas']['BookingTimelineEntry'];

const TIMELINE_LIMIT = 500;

function callEntry(c: StoredSupplierCall): Entry {
  const status = c.httpStatus === null ? '' : `${c.httpStatus}, `;
  return {
    at: c.startedAt.toISOString(),
    kind: 'supplier_call',
    summary: `${c.supplier} ${c.operation} ${c.outcome} (${status}${c.durationMs} ms${c.attempts > 1 ? `, ${c.attempts} attempts` : ''})`,
    state: null,
    supplier_call: {
      supplier: c.supplier,
      operation: c.operation,
      outcome: c.outcome,
      http_status: c.httpStatus,
      attempts: c.attempts,
      duration_ms: c.durationMs,
      request_id: c.requestId,
      job_id: c.jobId,
      trace_id: c.traceId,
      request_excerpt: c.requestExcerpt,
      response_excerpt: c.responseExcerpt,
    },
    money: null,
  };
}

export async function bookingTimeline(d: BookingDeps, b: BookingRow): Promise<Timeline> {
  const db = d.db;
  const [audit, txs, calls] = await Promise.all([
    db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'booking')
      .where('entity_id', '=', String(b.id))
      .orderBy('id')
      .execute(),
    transactionsOf(db, b.id),
    d.supplierCalls ? d.supplierCalls.forBooking(b.id) : Promise.resolve([]),
  ]);
  const rows: Array<{ t: number; order: number; entry: Entry }> = [];
  let order = 0;
  for (const e of audit) {
    const at = new Date(e.at);
    rows.push({
      t: at.getTime(),
      order: order++,
      entry: {
        at: at.toISOString(),
        kind: 'state',
        summary: `booking.${e.action}${e.reason ? `: ${e.reason}` : ''}`,
        state: {
          event: `booking.${e.action}`,
          actor_user_id: e.actor_id,
          reason: e.reason,
          changes: (redacted(parseJson<Record<string, unknown> | null>(e.changes) ?? {}) ?? {}) as Record<
            string,
            unknown
          >,
        },
        supplier_call: null,
        money: null,
      },
    });
  }
  for (const c of calls) rows.push({ t: c.startedAt.getTime(), order: order++, entry: callEntry(c) });
  for (const t of txs) {
    const at = new Date(t.created_at);
    rows.push({
      t: at.getTime(),
      order: order++,
      entry: {
        at: at.toISOString(),
        kind: 'money',
        summary: `${t.type} ${t.amount_minor} ${t.currency} ${t.status}${t.failure_code ? ` (${t.failure_code})` : ''}`,
        state: null,
        supplier_call: null,
        money: {
          type: t.type,
          status: t.status,
          amount_minor: t.amount_minor,
          currency: t.currency,
          provider_ref: t.provider_ref,
          failure_code: t.failure_code,
        },
      },
    });
  }
  rows.sort((x, y) => x.t - y.t || x.order - y.order);
  return {
    booking_id: b.id,
    pnr: b.pnr,
    entries: rows.map((r) => r.entry),
    truncated: calls.length >= TIMELINE_LIMIT,
  };
}
