/**
 * The company wallet: one balance per company in the company's currency, and an append-only ledger.
 * `recordWalletTransaction` is the only writer; the booking domain calls it inside its own transaction
 * so a debit exists exactly when the booking does. The wallet row is locked for the update, so
 * concurrent debits see each other's balance.
 */
import type { components } from '@travel/contract';
import { storedCurrency } from '../../internal/money.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { Db } from '../../storage/schema.ts';
import { accountsDb, iso } from '../accounts/index.ts';

/**
 * A debit past the company's credit limit. Not an `HttpError`: no operation of the contract debits the
 * wallet yet, so `insufficient_credit` is declared nowhere; the operation that starts debiting declares it
 * (400) and maps this error to it.
 */
export class InsufficientCreditError extends Error {
  readonly code = 'insufficient_credit';
  constructor() {
    super('The company wallet has insufficient available credit.');
    this.name = 'InsufficientCreditError';
  }
}

export interface WalletTransactionInput {
  companyId: number;
  type: 'credit' | 'debit';
  /** Positive, in minor units of `currency` (must be the wallet's currency: no FX here). */
  amountMinor: number;
  currency: string;
  description: string;
  reference?: string | null;
  bookingId?: number | null;
  createdBy?: string | null;
  /** Default false: a debit beyond balance + credit limit is refused with 400 `insufficient_credit`. */
  allowOverdraft?: boolean;
}

async function lockWallet(trx: Db, companyId: number) {
  const db = accountsDb(trx);
  const c = await trx
    .selectFrom('companies')
    .select(['currency', 'credit_limit_minor'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('wallets')
    .values({ company_id: companyId, currency: c.currency.trim(), balance_minor: 0 })
    .onConflict((oc) => oc.column('company_id').doNothing())
    .execute();
  const w = await db
    .selectFrom('wallets')
    .selectAll()
    .where('company_id', '=', companyId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { wallet: w, creditLimit: Number(c.credit_limit_minor) };
}

/** Appends one ledger row and moves the balance; returns the row as the contract's `WalletTransaction`. */
export async function recordWalletTransaction(trx: Db, t: WalletTransactionInput) {
  if (!Number.isInteger(t.amountMinor) || t.amountMinor <= 0)
    throw new RangeError('amountMinor must be a positive integer');
  const { wallet, creditLimit } = await lockWallet(trx, t.companyId);
  const currency = wallet.currency.trim();
  if (t.currency !== currency) throw badRequest('currency_mismatch', `The wallet is in ${currency}.`);
  const balance = Number(wallet.balance_minor);
  const after = t.type === 'credit' ? balance + t.amountMinor : balance - t.amountMinor;
  if (t.type === 'debit' && !t.allowOverdraft && after + creditLimit < 0) {
    throw new InsufficientCreditError();
  }
  const now = new Date();
  const db = accountsDb(trx);
  await db
    .updateTable('wallets')
    .set({ balance_minor: after, updated_at: now })
    .where('company_id', '=', t.companyId)
    .execute();
  const row = await db
    .insertInto('wallet_transactions')
    .values({
      company_id: t.companyId,
      type: t.type,
      amount_minor: t.amountMinor,
      currency,
      balance_after_minor: after,
      reference: t.reference ?? null,
      booking_id: t.bookingId ?? null,
      description: t.description,
      created_by: t.createdBy ?? null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return transactionView(row);
}

export function transactionView(r: {
  id: number | string;
  type: 'credit' | 'debit';
  amount_minor: number | string;
  currency: string;
  balance_after_minor: number | string;
  reference: string | null;
  booking_id: number | string | null;
  description: string;
  created_at: Date | string;
}): components['schemas']['WalletTransaction'] {
  return {
    transaction_id: Number(r.id),
    type: r.type,
    amount_minor: Number(r.amount_minor),
    currency: storedCurrency(r.currency),
    balance_after_minor: Number(r.balance_after_minor),
    reference: r.reference,
    booking_id: r.booking_id === null ? null : Number(r.booking_id),
    description: r.description,
    created_at: iso(r.created_at),
  };
}

/** The contract's `Wallet`: a company that never transacted has a zero balance in its currency. */
export async function walletView(db: Db, companyId: number): Promise<components['schemas']['Wallet']> {
  const c = await db
    .selectFrom('companies')
    .select(['currency', 'credit_limit_minor', 'updated_at'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  const w = await accountsDb(db)
    .selectFrom('wallets')
    .selectAll()
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  const balance = w ? Number(w.balance_minor) : 0;
  const limit = Number(c.credit_limit_minor);
  return {
    company_id: companyId,
    currency: storedCurrency(w?.currency ?? c.currency),
    balance_minor: balance,
    credit_limit_minor: limit,
    available_credit_minor: balance + limit,
    updated_at: iso(w?.updated_at ?? c.updated_at),
  };
}
