/**
 * `travel ticket issue|status|document|void|refund|reissue`. void and refund quote without --confirm;
 * reissue only ever quotes (the spec raises no reissue from here).
 */
import type { components, TicketAction } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { eTicketDocument, loadETicket } from '../documents/e-ticket.ts';
import { documentLines } from '../documents/model.ts';
import { writePdf } from '../documents/pdf.ts';
import { CliError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { confirmationWord, type Guard, parseGuard, typeToConfirm } from '../guard.ts';
import { bookingRef } from '../parse.ts';
import { money } from '../ui/table.ts';
import { pendingTicketLines, ticketIssueLines, ticketStatusLines } from '../views/ticket.ts';

type TicketIssueResult = components['schemas']['TicketIssueResult'];

export async function runTicketIssue(ref: string, options: { capture: boolean }, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const result = await ctx.client().tickets.issue(ref, { capture: options.capture });
  output(
    ctx,
    { ...(result.data as object), idempotency_key: result.idempotencyKey, request_id: result.requestId },
    () => {
      // A 202 (issuance still in process) may have no tickets yet: explained in words with the next step.
      const data = result.data as Partial<TicketIssueResult> & { raw_status_text?: string };
      if (Array.isArray(data.tickets))
        for (const line of ticketIssueLines(data as TicketIssueResult)) ctx.io.out(line);
      else
        for (const line of pendingTicketLines(
          data.booking_id ?? ref,
          data.raw_status_text ?? data.raw_status,
        ))
          ctx.io.out(line);
    },
  );
}

export async function runTicketStatus(ref: string, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const status = await ctx.client().tickets.status(ref);
  output(ctx, status, () => {
    for (const line of ticketStatusLines(status)) ctx.io.out(line);
  });
}

/** The e-ticket receipt on the terminal, or with `pdf` as a PDF file (its path on stdout). */
export async function runTicketDocument(ref: string, pdf: string | undefined, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const input = await loadETicket(ctx, ref);
  if (input.documents.tickets.length === 0)
    throw new CliError(`booking ${ref} has no tickets yet: travel ticket issue ${ref}`, ExitCode.conflict);
  const doc = eTicketDocument(input);
  if (pdf) {
    const bytes = await writePdf(doc, pdf);
    output(ctx, { file: pdf, bytes, booking_id: input.booking.booking_id }, () => ctx.io.out(pdf));
    ctx.io.err(
      `wrote the e-ticket receipt of booking ${input.booking.booking_id} to ${pdf} (${bytes} bytes)`,
    );
    return;
  }
  output(ctx, input.documents, () => {
    for (const line of documentLines(doc, ctx.io.columns)) ctx.io.out(line);
  });
}

type QuoteResult = Awaited<ReturnType<ReturnType<Ctx['client']>['tickets']['action']>>;

function quoteLines(r: QuoteResult): string[] {
  type Money = { amount_minor: number; currency: string };
  // The amounts are in the booking's currency; the supplier's own quote beside them when it was converted.
  const shown = (label: string, m: Money, original: Money | undefined) =>
    `${label} ${money(m.amount_minor, m.currency)}${
      original && original.currency !== m.currency
        ? ` (supplier quote ${money(original.amount_minor, original.currency)}, rate ${r.fx_rate})`
        : ''
    }`;
  return [
    `${r.action} ${r.confirmed ? 'done' : 'quote'} for booking ${r.booking_id}: ${r.permitted ? 'permitted' : 'not permitted'} (${r.determination})`,
    r.message,
    ...(r.refund ? [shown('refund', r.refund, r.supplier_refund)] : []),
    ...(r.fee ? [shown('fee', r.fee, r.supplier_fee)] : []),
    ...(r.payment ? [paymentLine(r.payment)] : []),
    `booking status ${r.booking_status}`,
  ];
}

const PAYMENT_WORDS: Record<string, string> = {
  refund: 'refunded to the card',
  void: 'card authorization released',
  partial_capture: 'released from the card authorization (the fee captured)',
  none: 'nothing to give back',
};

/** Where the money went: the payment settlement a confirmed void/refund makes in the same call. */
function paymentLine(p: NonNullable<QuoteResult['payment']>): string {
  const what = `${money(p.amount_minor, p.currency)} ${PAYMENT_WORDS[p.action] ?? p.action}`;
  const status: Record<string, string> = {
    succeeded: '',
    pending: ' (pending: the payment provider is being asked; see `travel pay history`)',
    awaiting_supplier: ' (when the supplier completes the request)',
    failed: ' (FAILED: the payment provider refused; an operator must refund)',
    manual_review: ' (an operator decides the amount: the supplier quote was not received)',
    not_required: '',
  };
  return `money back: ${p.action === 'none' ? PAYMENT_WORDS.none : what}${status[p.status] ?? ` (${p.status})`}`;
}

export async function runTicketAction(
  ref: string,
  kind: TicketAction,
  guard: Guard,
  note: string | undefined,
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  const client = ctx.client();
  const query = note ? { note } : {};
  if (kind === 'reissue' || !guard.confirm) {
    const quote = await client.tickets.action(ref, kind, query);
    output(ctx, quote, () => {
      for (const line of quoteLines(quote)) ctx.io.out(line);
    });
    if (kind !== 'reissue') ctx.io.err(`Nothing changed. Pass --confirm to ${kind}.`);
    return;
  }
  // What will happen first (refund, fee, where the money goes), then the PNR to type.
  if (!guard.yes) {
    const quote = await client.tickets.action(ref, kind, query);
    for (const line of quoteLines(quote)) ctx.io.err(line);
    if (!quote.permitted)
      throw new CliError(
        `the ${kind} is not permitted (${quote.determination}); nothing changed`,
        ExitCode.conflict,
      );
  }
  await typeToConfirm(ctx, guard, await confirmationWord(ctx, ref), `${kind} the tickets of booking ${ref}`);
  const done = await client.tickets.action(ref, kind, { ...query, confirm: true });
  output(ctx, done, () => {
    for (const line of quoteLines(done)) ctx.io.out(line);
  });
}

const simple = (
  deps: Deps,
  name: string,
  description: string,
  run: (ref: string, ctx: Ctx) => Promise<void>,
) =>
  examples(
    new Command(name)
      .argument('<booking>', 'booking id or PNR')
      .description(description)
      .action(action(deps, (ctx, _o, [ref]) => run(bookingRef(ref), ctx))),
    `travel ticket ${name} X7KQ2M`,
  );

export function ticketCommand(deps: Deps): Command {
  const ticket = new Command('ticket').description('tickets of a flight booking');
  ticket.addCommand(
    examples(
      new Command('issue')
        .argument('<booking>', 'booking id or PNR')
        .description('issue the tickets (captures the payment by default)')
        .option('--no-capture', 'do not capture an authorized payment first')
        .action(
          action(deps, (ctx, raw: { capture?: boolean }, [ref]) =>
            runTicketIssue(bookingRef(ref), { capture: raw.capture !== false }, ctx),
          ),
        ),
      'travel ticket issue X7KQ2M',
    ),
  );
  ticket.addCommand(simple(deps, 'status', 'ticket and coupon status', runTicketStatus));
  ticket.addCommand(
    examples(
      new Command('document')
        .argument('<booking>', 'booking id or PNR')
        .description('the e-ticket receipt and itinerary a customer is sent (on the terminal, or --pdf FILE)')
        .option('--pdf <file>', 'write it as a PDF to this file')
        .action(
          action(deps, (ctx, raw: { pdf?: string }, [ref]) =>
            runTicketDocument(bookingRef(ref), raw.pdf, ctx),
          ),
        ),
      'travel ticket document X7KQ2M',
      'travel ticket document X7KQ2M --pdf e-ticket-X7KQ2M.pdf',
      'travel ticket document 1042 --json',
    ),
  );
  for (const kind of ['void', 'refund'] as const) {
    ticket.addCommand(
      examples(
        new Command(kind)
          .argument('<booking>', 'booking id or PNR')
          .description(`quote a ${kind}; with --confirm, do it (type the PNR, or --yes)`)
          .option('--confirm', `really ${kind} (else: quote only)`)
          .option('--yes', 'skip typing the PNR (required with --confirm without a terminal)')
          .option('--note <text>', 'note for the servicing request')
          .action(
            action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean; note?: string }, [ref]) =>
              runTicketAction(bookingRef(ref), kind, parseGuard(raw, ctx.io.interactive), raw.note, ctx),
            ),
          ),
        `travel ticket ${kind} X7KQ2M`,
        `travel ticket ${kind} X7KQ2M --confirm`,
        `travel ticket ${kind} 1042 --confirm --yes --json`,
      ),
    );
  }
  ticket.addCommand(
    examples(
      new Command('reissue')
        .argument('<booking>', 'booking id or PNR')
        .description('quote a reissue (quote only)')
        .option('--note <text>', 'note for the servicing request')
        .action(
          action(deps, (ctx, raw: { note?: string }, [ref]) =>
            runTicketAction(bookingRef(ref), 'reissue', { confirm: false, yes: false }, raw.note, ctx),
          ),
        ),
      'travel ticket reissue X7KQ2M',
    ),
  );
  return ticket;
}
