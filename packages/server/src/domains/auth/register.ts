import { writeAudit } from '../../audit/audit-log.ts';
import { newId, sha256 } from '../../internal/ids.ts';
import { hashPassword } from '../../internal/passwords.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { BodyOf, RequestContext, Role } from '../../kernel/types.ts';
import { type AuthDeps, companyCode, hashed, limit } from './deps.ts';
import { sendVerification, verifyLink } from './email-verification.ts';
import { userView } from './user-view.ts';

/** The contract's `RegisterRequest`. */
type RegisterInput = BodyOf<'registerUser'>;

/** Roles a person may give themselves. Company roles come only from an invitation. */
const SELF_SERVICE_ROLES: ReadonlySet<string> = new Set(['customer']);

const REGISTERED_VERIFIED = 'Registered. You can log in now.';
const REGISTERED_UNVERIFIED = 'Registered. Follow the link in the verification email, then log in.';

/** The insert lost a race with a concurrent registration of the same address. */
class DuplicateEmail extends Error {}

/**
 * Self-registration. Whatever `role` is sent, it grants at most `customer`; a valid `invite_code`
 * grants exactly the invitation's role and company (and proves the address, so no verification mail).
 *
 * An address that already has an account gets the answer a new registration gets (same status, same
 * body shape, a password hashed at the same cost), and its owner gets a mail saying they already have
 * an account: the answer never tells a stranger which addresses exist. (With an invitation code the
 * caller holds a secret mailed to that address, so the invitation path may say so.)
 */
export async function register(d: AuthDeps, ctx: RequestContext, input: RegisterInput) {
  await limit(d, `register-ip:${ctx.ip}`, d.config.rateLimits.registerIp);
  const email = input.email.trim().toLowerCase();
  const now = d.clock.now();
  let role: Role = 'customer';
  let companyId: number | null = null;
  let verified = false;

  if (input.invite_code) {
    const inv = await d.db
      .selectFrom('invitations')
      .selectAll()
      .where('code', '=', sha256(input.invite_code))
      .executeTakeFirst();
    if (!inv || inv.used_at || new Date(inv.expires_at) <= now || inv.email.toLowerCase() !== email) {
      throw badRequest('invalid_invite_code', 'The invitation code is not valid for this email address.');
    }
    role = inv.role as Role;
    companyId = inv.company_id;
    verified = true;
  } else {
    const requested = input.role ?? 'customer';
    if (!SELF_SERVICE_ROLES.has(requested)) {
      throw badRequest(
        'role_not_allowed',
        `The role ${requested} cannot be self-registered; it needs an invitation.`,
      );
    }
    if (input.company_code) {
      const c = await d.db
        .selectFrom('companies')
        .select(['id', 'status'])
        .where('company_code', '=', input.company_code)
        .executeTakeFirst();
      if (c?.status !== 'active' || !c) throw badRequest('invalid_company_code', 'Unknown company code.');
      companyId = c.id;
    }
  }

  const exists = await d.db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  const alreadyRegistered = async () => {
    if (input.invite_code) {
      throw badRequest(
        'invalid_invite_code',
        'This address already has an account: log in instead (the invitation cannot create a second one).',
      );
    }
    return answerAlreadyRegistered(d, input, email, role, companyId);
  };
  if (exists) {
    // the same cost as a real registration
    await hashed(() => hashPassword(input.password, undefined, { client: ctx.ip }));
    return alreadyRegistered();
  }

  const id = newId();
  const passwordHash = await hashed(() => hashPassword(input.password, undefined, { client: ctx.ip }));
  const user = await d.db
    .transaction()
    .execute(async (trx) => {
      if (input.invite_code) {
        const used = await trx
          .updateTable('invitations')
          .set({ used_at: now })
          .where('code', '=', sha256(input.invite_code))
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) {
          throw badRequest('invalid_invite_code', 'The invitation code is not valid for this email address.');
        }
      }
      const row = await trx
        .insertInto('users')
        .values({
          id,
          email,
          password_hash: passwordHash,
          full_name: input.full_name,
          role,
          status: verified ? 'active' : 'pending',
          company_id: companyId,
          phone: input.phone ?? null,
          department: input.department ?? null,
          user_code: input.user_code ?? null,
          email_verified_at: verified ? now : null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((err: { code?: string }) => {
          if (err.code === '23505') throw new DuplicateEmail();
          throw err;
        });
      if (input.invite_code) {
        await trx
          .updateTable('invitations')
          .set({ used_by: id })
          .where('code', '=', sha256(input.invite_code))
          .execute();
      }
      await writeAudit(trx, ctx, {
        entity: 'user',
        entityId: id,
        action: 'registered',
        reason: input.invite_code ? 'invitation accepted' : 'self-registration',
        changes: { role, company_id: companyId, status: row.status },
        companyId,
      });
      return row;
    })
    .catch((err: unknown) => {
      if (err instanceof DuplicateEmail) return undefined; // a concurrent registration of the address won
      throw err;
    });
  if (!user) return alreadyRegistered();

  if (!verified) await sendVerification(d, user.id, user.email, user.full_name);
  return {
    user: userView(user, await companyCode(d, user.company_id)),
    verification_required: !verified,
    message: verified ? REGISTERED_VERIFIED : REGISTERED_UNVERIFIED,
  };
}

/**
 * The answer to registering an address that has an account: shaped like a new unverified account
 * (nothing of the real one), and a mail to the address saying it already has an account (with a
 * fresh verification link if it never verified).
 */
async function answerAlreadyRegistered(
  d: AuthDeps,
  input: RegisterInput,
  email: string,
  role: Role,
  companyId: number | null,
) {
  const existing = await d.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  if (existing) {
    const base = d.config.publicBaseUrl;
    let text =
      `Hello ${existing.full_name},\n\nSomeone (probably you) tried to register a new account with this ` +
      `email address, but you already have an account. No new account was created.\n\n` +
      `Log in with your existing password: POST ${base}/api/v1/auth/login (or \`travel login\`).\n`;
    if (!existing.email_verified_at) {
      const token = await d.tokens.signEmailVerification(existing.id, existing.email);
      text += `\nYour address is not verified yet; confirm it by opening this link:\n\n${verifyLink(d, token)}\n`;
    }
    text += '\nIf this was not you, you can ignore this message; your account is unchanged.\n';
    await d.mailer.send({ to: existing.email, subject: 'You already have an account', text });
  }
  const now = d.clock.now();
  return {
    user: userView(
      {
        id: newId(),
        email,
        password_hash: '',
        full_name: input.full_name,
        role,
        status: 'pending',
        company_id: companyId,
        is_active: true,
        phone: input.phone ?? null,
        department: input.department ?? null,
        user_code: input.user_code ?? null,
        email_verified_at: null,
        suspended_until: null,
        status_reason: null,
        last_login_at: null,
        created_at: now,
        updated_at: now,
      } as Parameters<typeof userView>[0],
      await companyCode(d, companyId),
    ),
    verification_required: true,
    message: REGISTERED_UNVERIFIED,
  };
}
