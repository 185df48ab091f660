/**
 * Post-ticketing requests (PTR): a quote PTR (VoidQuote, RefundQuote, ReIssueQuote) is answered at once;
 * a Void or Refund request needs a live quote and is then worked asynchronously
 * (Requested -> InProcess -> Completed | Rejected | QuoteChanged), moved on by polls or the clock.
 */

import { minorPerMajor } from '../../shared/money.ts';
import type { Ctx } from './context.ts';
import { route } from './context.ts';
import { totals } from './data.ts';
import { type Booking, type Ptr, type PtrType, progress, STATUS, VOID_WINDOW_MS } from './state.ts';
import { fail, money, ok } from './wire.ts';

const TYPES: readonly PtrType[] = ['VoidQuote', 'RefundQuote', 'ReIssueQuote', 'Void', 'Refund'];

function quoteAmounts(b: Booking, type: PtrType): { refund: number; fee: number } {
  const t = totals(b.itinerary);
  const unit = minorPerMajor(b.itinerary.currency);
  if (type === 'VoidQuote' || type === 'Void') {
    const fee = 15 * unit * b.travelers.length;
    return { refund: t.total - fee, fee };
  }
  if (type === 'ReIssueQuote') return { refund: 0, fee: Math.round(t.base * 0.12) + 20 * unit };
  const fee = Math.round(t.base * 0.1) + 25 * unit;
  return { refund: t.total - fee, fee };
}

function view(b: Booking, p: Ptr) {
  return {
    PTRId: p.id,
    MFRef: b.uniqueId,
    PTRType: p.type,
    PTRStatus: p.status,
    CreatedOn: new Date(p.createdAt).toISOString(),
    ModifiedOn: new Date(p.updatedAt).toISOString(),
    Remarks: p.remarks,
    Quote: {
      TotalRefundAmount: money(p.refundMinor, b.itinerary.currency),
      TotalFeeAmount: money(p.feeMinor, b.itinerary.currency),
    },
  };
}

export function ptrRoutes(ctx: Ctx) {
  return [
    route(ctx, 'post', '/api/v1/PostTicketingRequest', ({ body }) => {
      const b = typeof body.MFRef === 'string' ? ctx.state.bookings.get(body.MFRef) : undefined;
      if (!b) return fail('ERPTR009', 'Booking not found.');
      const type = body.PTRType as PtrType;
      if (body.PTRType === 'ReIssue')
        return fail('ERPTR007', 'Reissue requests cannot be raised through the API.');
      if (!TYPES.includes(type))
        return fail('ERPTR011', 'PTRType must be one of VoidQuote, RefundQuote, ReIssueQuote, Void, Refund.');
      const now = ctx.now();
      progress(b, now, false);
      if (b.status !== STATUS.ticketed) return fail('ERPTR010', 'Booking is not ticketed.');
      const isVoid = type === 'Void' || type === 'VoidQuote';
      if (isVoid && b.ticketedAt !== undefined && now - b.ticketedAt > VOID_WINDOW_MS) {
        return fail('ERPTR003', 'Void window has expired for this ticket.');
      }
      if ((type === 'Refund' || type === 'RefundQuote') && !b.itinerary.refundable) {
        return fail('ERPTR004', 'Fare is non-refundable.');
      }
      if (type === 'ReIssueQuote' && !b.itinerary.changeable)
        return fail('ERPTR005', 'Fare is not changeable.');
      let quote: Ptr | undefined;
      if (type === 'Void' || type === 'Refund') {
        if (b.ptrs.some((p) => p.type === type && (p.status === 'Requested' || p.status === 'InProcess'))) {
          return fail('ERPTR008', `A ${type} request is already open for this booking.`);
        }
        quote = b.ptrs.findLast((p) => p.type === `${type}Quote` && p.status === 'Completed' && !p.used);
        if (!quote) return fail('ERPTR006', `A ${type}Quote is required before raising a ${type} request.`);
        quote.used = true;
      }
      const names = new Set(b.travelers.map((t) => t.last.toUpperCase()));
      const amounts = quoteAmounts(b, type);
      const ptr: Ptr = {
        id: `PTR${String(100000 + ctx.state.counter)}`,
        type,
        status: quote ? 'Requested' : 'Completed',
        createdAt: now,
        updatedAt: now,
        polls: 0,
        refundMinor: amounts.refund,
        feeMinor: amounts.fee,
        outcome: names.has('PTRREJECT') ? 'Rejected' : names.has('REQUOTE') ? 'QuoteChanged' : 'Completed',
        remarks: typeof body.Remarks === 'string' ? body.Remarks : '',
        used: false,
      };
      b.ptrs.push(ptr);
      return ok(view(b, ptr));
    }),
    route(ctx, 'post', '/api/v1/Search/PostTicketingRequest', ({ body }) => {
      const b = typeof body.MFRef === 'string' ? ctx.state.bookings.get(body.MFRef) : undefined;
      if (!b || b.ptrs.length === 0) return fail('ERPTR001', 'No records found.');
      progress(b, ctx.now(), true);
      return ok({ PostTicketingRequests: b.ptrs.map((p) => view(b, p)) });
    }),
  ];
}
