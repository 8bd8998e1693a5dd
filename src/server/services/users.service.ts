import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import { findUserById, findUserByName, insertUser, listUsers, type UserRow } from '../store/users.repo.js';
import { mintAccessToken, tokenSecret } from '../auth/tokens.js';
import { insertAudit } from '../store/audit.repo.js';
import { auditRow, SYSTEM, type AuditActor } from './audit.service.js';

export interface NewUser {
  name: string;
  role?: 'admin' | 'user';
  plan?: 'free' | 'paid';
  credits?: number;
}

export type Ctx = Pick<AppContext, 'db' | 'now'>;

export async function createUser(ctx: Ctx, input: NewUser, actor: AuditActor = SYSTEM): Promise<UserRow> {
  const name = input.name.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(name)) {
    throw new HttpError('INVALID_PARAMETER', 'a user name is 1-64 letters, digits, ".", "_", "@" or "-"', {
      status: 422,
    });
  }
  if (await findUserByName(ctx.db, name)) throw new HttpError('CONFLICT', `user ${name} already exists`);
  const credits = input.credits ?? 0;
  if (!Number.isInteger(credits) || credits < 0) {
    throw new HttpError('INVALID_PARAMETER', 'credits must be a whole number of 0 or more', { status: 422 });
  }
  const user: UserRow = {
    id: newId('usr'),
    name,
    role: input.role ?? 'user',
    plan: input.plan ?? 'free',
    credits,
    created_at: ctx.now().toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertUser(trx, user);
    const { id, name: userName, ...fields } = user;
    await insertAudit(
      trx,
      auditRow(ctx.now(), actor, {
        action: 'user.created',
        targetType: 'user',
        targetId: id,
        subjectUserId: id,
        after: { name: userName, ...fields },
      }),
    );
  });
  return user;
}

/** A user by id or by name: offline commands accept either. */
export async function findUser(ctx: Ctx, idOrName: string): Promise<UserRow | undefined> {
  return (await findUserById(ctx.db, idOrName)) ?? (await findUserByName(ctx.db, idOrName));
}

export { listUsers };

/** Mints a token and records that it was issued (its expiry, never the token itself). */
export async function issueAccessToken(ctx: Ctx, userId: string, ttlSeconds: number, actor: AuditActor = SYSTEM) {
  const token = await mintAccessToken(await tokenSecret(ctx.db), userId, ttlSeconds, ctx.now());
  await insertAudit(
    ctx.db,
    auditRow(ctx.now(), actor, {
      action: 'token.issued',
      targetType: 'user',
      targetId: userId,
      subjectUserId: userId,
      after: { expires_at: token.expiresAt },
    }),
  );
  return token;
}

export function publicUser(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    role: user.role,
    plan: user.plan,
    credits: user.credits,
    created_at: user.created_at,
  };
}
