/**
 * API keys (issue 16): `/api/v1/company/api-keys` for a company admin's own company,
 * `/api/v1/admin/companies/{company_id}/api-keys` for super admins. Management takes a person's access
 * token only (the contract does not list `apiKeyAuth` on it, so the kernel answers a key 403).
 */

import type { ApiKey, ApiKeyStore } from '../../api-keys/api-keys.ts';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { RequestContext, Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { type AccountsDeps, iso, ok, pageBody, paging } from '../accounts/index.ts';
import { ownCompany } from './clients.ts';

/** The contract's `ApiKey`: never the secret, never the hash. */
export function apiKeyView(k: ApiKey) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    role: k.role,
    mode: k.mode,
    company_id: k.companyId,
    company_code: k.companyCode,
    created_by: k.createdBy,
    user_code: k.userCode,
    created_at: k.createdAt.toISOString(),
    expires_at: iso(k.expiresAt),
    last_used_at: iso(k.lastUsedAt),
    revoked_at: iso(k.revokedAt),
  };
}

function storeOf(deps: AccountsDeps): ApiKeyStore {
  const store = deps.principals.apiKeys;
  if (!store) throw new Error('API keys need PrincipalStore.apiKeys (app.ts wires it)');
  return store;
}

async function list(store: ApiKeyStore, ctx: RequestContext, companyId: number) {
  const p = paging(ctx);
  const { items, total } = await store.list(companyId, {
    includeRevoked: ctx.query.include_revoked === true,
    limit: p.page_size,
    offset: p.offset,
  });
  return ok(pageBody(items.map(apiKeyView), total, p));
}

async function revoke(store: ApiKeyStore, ctx: RequestContext, companyId: number) {
  const id = Number(ctx.params.key_id);
  const by = ctx.auth?.userId ?? 'unknown';
  return ctx.transaction(async (trx) => {
    const before = await store.get(companyId, id, trx);
    if (!before) throw notFound('api_key_not_found', 'No such API key.');
    const after = await store.revoke(companyId, id, by, trx);
    if (!before.revokedAt) {
      await writeAudit(trx, ctx, { entity: 'api_key', entityId: id, action: 'revoked', companyId });
    }
    return { status: 200, body: apiKeyView(after as ApiKey) };
  });
}

async function companyExists(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export function companyApiKeyRoutes(deps: AccountsDeps): Routes {
  const store = storeOf(deps);
  return {
    async companyCreateApiKey(ctx) {
      const companyId = ownCompany(ctx);
      const body = ctx.body;
      const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= deps.clock.now().getTime()) {
        throw badRequest('invalid_expiry', 'expires_at must lie in the future.');
      }
      let secret: string | undefined;
      // The Idempotency-Key record (written in this transaction) holds the answer WITHOUT the secret, so
      // the secret is never at rest; a replay answers `key: null`.
      const stored = await ctx.transaction(async (trx) => {
        const created = await store.create(
          {
            companyId,
            createdBy: (ctx.auth as NonNullable<RequestContext['auth']>).userId,
            name: body.name,
            role: body.role ?? 'company_staff',
            expiresAt,
          },
          trx,
        );
        secret = created.secret;
        await writeAudit(trx, ctx, {
          entity: 'api_key',
          entityId: created.key.id,
          action: 'created',
          changes: { name: created.key.name, prefix: created.key.prefix, role: created.key.role },
          companyId,
        });
        return { status: 201, body: { ...apiKeyView(created.key), key: null as string | null } };
      });
      return { status: 201, body: { ...stored.body, key: secret ?? null } };
    },
    companyListApiKeys: (ctx) => list(store, ctx, ownCompany(ctx)),
    async companyGetCurrentApiKey(ctx) {
      const id = ctx.auth?.apiKeyId;
      if (!id) throw badRequest('not_an_api_key', 'This call was made with an access token, not an API key.');
      const key = await store.get(ownCompany(ctx), Number(id));
      if (!key)
        throw badRequest('not_an_api_key', 'This call was made with an access token, not an API key.');
      return ok(apiKeyView(key));
    },
    companyRevokeApiKey: (ctx) => revoke(store, ctx, ownCompany(ctx)),
    async adminListCompanyApiKeys(ctx) {
      const companyId = Number(ctx.params.company_id);
      if (!(await companyExists(deps.db, companyId))) throw notFound('company_not_found', 'No such company.');
      return list(store, ctx, companyId);
    },
    async adminRevokeCompanyApiKey(ctx) {
      const companyId = Number(ctx.params.company_id);
      if (!(await companyExists(deps.db, companyId))) throw notFound('company_not_found', 'No such company.');
      return revoke(store, ctx, companyId);
    },
  };
}
