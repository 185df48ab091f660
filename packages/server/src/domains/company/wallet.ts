/** Company: wallet balance and ledger (company_admin). */

import { sql } from 'kysely';
import type { Routes } from '../../kernel/types.ts';
import { columns, keysetBody, keysetList } from '../../storage/keyset-list.ts';
import { type AccountsDeps, accountsDb, ok, paging } from '../accounts/index.ts';
import { ownCompany } from './clients.ts';
import { transactionView, walletView } from './wallet-store.ts';

export function companyWalletRoutes(d: AccountsDeps): Routes {
  const { db } = d;
  return {
    companyGetWallet: async (ctx) => ok(await walletView(db, ownCompany(ctx))),
    companyListWalletTransactions: async (ctx) => {
      const cid = ownCompany(ctx);
      const p = paging(ctx);
      // Newest first by id (a ledger's order), index (company_id, type, id) of 0230 or (company_id, id).
      let q = accountsDb(db).selectFrom('wallet_transactions as t').where('t.company_id', '=', cid);
      if (ctx.query.transaction_type) q = q.where('t.type', '=', ctx.query.transaction_type);
      const r = await keysetList(
        db,
        {
          matches: q,
          table: 'wallet_transactions',
          alias: 't',
          key: columns('id'),
          desc: true,
          page: p.page,
          page_size: p.page_size,
          ...(ctx.query.starting_after ? { starting_after: ctx.query.starting_after } : {}),
          scope: [sql`cur.company_id = ${cid}`],
        },
        (rows) => rows.selectAll('t'),
      );
      return ok(
        keysetBody(
          r.items.map((t) => transactionView(t)),
          r,
          p,
        ),
      );
    },
  };
}
