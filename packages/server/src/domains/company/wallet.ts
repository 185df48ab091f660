/** Company: wallet balance and ledger (company_admin). */
import type { Routes } from '../../kernel/types.ts';
import { type AccountsDeps, accountsDb, ok, pageBody, paging } from '../accounts/index.ts';
import { ownCompany } from './clients.ts';
import { transactionView, walletView } from './wallet-store.ts';

export function companyWalletRoutes(d: AccountsDeps): Routes {
  const { db } = d;
  return {
    companyGetWallet: async (ctx) => ok(await walletView(db, ownCompany(ctx))),
    companyListWalletTransactions: async (ctx) => {
      const cid = ownCompany(ctx);
      const p = paging(ctx);
      let q = accountsDb(db).selectFrom('wallet_transactions').where('company_id', '=', cid);
      if (ctx.query.transaction_type) q = q.where('type', '=', ctx.query.transaction_type);
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q.selectAll().orderBy('id', 'desc').limit(p.page_size).offset(p.offset).execute();
      return ok(pageBody(rows.map(transactionView), n, p));
    },
  };
}
