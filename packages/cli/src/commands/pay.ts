/** `travel pay authorize|capture|void|refund|history`; capture, void and refund are guarded. */
import type { components } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { confirmationWord, type Guard, parseGuard, typeToConfirm } from '../guard.ts';
import { bookingRef, integer, requireValue } from '../parse.ts';
import { money, renderTable } from '../ui/table.ts';
import { paymentActionLines } from '../views/ticket.ts';

type Payment = components['schemas']['Payment'];

export interface AuthorizeOptions {
  token: string;
  amountMinor: number | undefined;
  currency: string | undefined;
  idempotencyKey: string | undefined;
}

export function parseAuthorizeOptions(raw: {
  token?: string;
  amount?: string;
  currency?: string;
  idempotencyKey?: string;
}): AuthorizeOptions {
  return {
    token: requireValue(raw.token, '--token', 'a payment token, e.g. tok_sandbox_ok'),
    amountMinor: integer(raw.amount, '--amount', 1, Number.MAX_SAFE_INTEGER),
    currency: raw.currency?.toUpperCase(),
    idempotencyKey: raw.idempotencyKey,
  };
}

export async function runAuthorize(ref: string, options: AuthorizeOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const client = ctx.client();
  // Default to the booking's total: the common case, and it avoids an amount_mismatch typo.
  const booking = options.amountMinor && options.currency ? undefined : await client.bookings.get(ref);
  const amount = options.amountMinor ?? booking?.pricing.total_minor ?? 0;
  const currency = (options.currency ?? booking?.pricing.currency ?? 'USD') as 'USD';
  const result = await client.payments.authorize(
    ref,
    { token: options.token, currency, amount_minor: amount },
    options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : undefined,
  );
  output(
    ctx,
    { ...(result.data as object), idempotency_key: result.idempotencyKey, request_id: result.requestId },
    () => {
      ctx.io.out(`authorized ${money(amount, currency)} on booking ${ref}`);
      ctx.io.err(`idempotency key ${result.idempotencyKey}`);
    },
  );
}

type MoneyAction = 'capture' | 'void' | 'refund';

export interface MoneyActionOptions {
  guard: Guard;
  amountMinor: number | undefined;
  reason: string | undefined;
}

export async function runMoneyAction(
  ref: string,
  kind: MoneyAction,
  options: MoneyActionOptions,
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  const client = ctx.client();
  if (!options.guard.confirm) {
    const history = await client.payments.history(ref);
    output(
      ctx,
      {
        booking_id: history.booking_id,
        action: kind,
        done: false,
        payments: history.payments,
        hint: `pass --confirm to ${kind}`,
      },
      () => printHistory(ctx, history),
    );
    ctx.io.err(`Nothing changed. Pass --confirm to ${kind} the payment of booking ${ref}.`);
    return;
  }
  await typeToConfirm(
    ctx,
    options.guard,
    await confirmationWord(ctx, ref),
    `${kind} the payment of booking ${ref}`,
  );
  const query = {
    ...(options.amountMinor ? { amount_minor: options.amountMinor } : {}),
    ...(kind === 'refund' && options.reason ? { reason: options.reason } : {}),
  };
  const result = await client.payments[kind](ref, query);
  output(
    ctx,
    { ...(result.data as object), idempotency_key: result.idempotencyKey, request_id: result.requestId },
    () => {
      for (const line of paymentActionLines(kind, result.data as Payment)) ctx.io.out(line);
      ctx.io.err(`idempotency key ${result.idempotencyKey}`);
    },
  );
}

function printHistory(
  ctx: Ctx,
  history: Awaited<ReturnType<ReturnType<Ctx['client']>['payments']['history']>>,
) {
  const rows = history.transactions.map((t) => [
    String(t.transaction_id),
    t.type,
    t.status,
    money(t.amount_minor, t.currency),
    t.created_at,
    t.failure_code ?? '',
  ]);
  for (const line of renderTable(['txn', 'type', 'status', 'amount', 'at', 'failure'], rows))
    ctx.io.out(line);
}

export async function runPayHistory(ref: string, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const history = await ctx.client().payments.history(ref);
  output(ctx, history, () => printHistory(ctx, history));
}

const guarded = (deps: Deps, kind: MoneyAction, example: string) => {
  const command = new Command(kind)
    .argument('<booking>', 'booking id or PNR')
    .description(`${kind} the payment (guarded: --confirm, then type the PNR or --yes)`)
    .option('--confirm', `really ${kind} (else: show the payments, change nothing)`)
    .option('--yes', 'skip typing the PNR (required with --confirm without a terminal)')
    .option('--amount <minor>', 'amount in minor units (default: all)');
  if (kind === 'refund') command.option('--reason <text>', 'why');
  command.action(
    action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean; amount?: string; reason?: string }, [ref]) =>
      runMoneyAction(
        bookingRef(ref),
        kind,
        {
          guard: parseGuard(raw, ctx.io.interactive),
          amountMinor: integer(raw.amount, '--amount', 1, Number.MAX_SAFE_INTEGER),
          reason: raw.reason,
        },
        ctx,
      ),
    ),
  );
  return examples(command, `travel pay ${kind} X7KQ2M`, example);
};

export function payCommand(deps: Deps): Command {
  const pay = new Command('pay').description('payments of a flight booking');
  pay.addCommand(
    examples(
      new Command('authorize')
        .argument('<booking>', 'booking id or PNR')
        .description('authorize a card payment')
        .option('--token <token>', 'payment token (sandbox: tok_sandbox_ok, tok_sandbox_decline)')
        .option('--amount <minor>', 'amount in minor units (default: the booking total)')
        .option('--currency <CUR>', 'default: the booking currency')
        .option('--idempotency-key <key>', 'send this Idempotency-Key')
        .action(
          action(
            deps,
            (
              ctx,
              raw: { token?: string; amount?: string; currency?: string; idempotencyKey?: string },
              [ref],
            ) => runAuthorize(bookingRef(ref), parseAuthorizeOptions(raw), ctx),
          ),
        ),
      'travel pay authorize X7KQ2M --token tok_sandbox_ok',
    ),
  );
  pay.addCommand(guarded(deps, 'capture', 'travel pay capture X7KQ2M --confirm'));
  pay.addCommand(guarded(deps, 'void', 'travel pay void 1042 --confirm --yes --json'));
  pay.addCommand(
    guarded(deps, 'refund', 'travel pay refund X7KQ2M --confirm --amount 5000 --reason "schedule change"'),
  );
  pay.addCommand(
    examples(
      new Command('history')
        .argument('<booking>', 'booking id or PNR')
        .description('payments and transactions')
        .action(action(deps, (ctx, _o, [ref]) => runPayHistory(bookingRef(ref), ctx))),
      'travel pay history X7KQ2M --json',
    ),
  );
  return pay;
}
