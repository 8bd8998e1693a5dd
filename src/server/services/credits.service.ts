import { HttpError, notFound } from '../errors.js';
import { creditsOf } from '../store/credits.repo.js';
import { lockForTransaction } from '../store/dialect/locks.js';
import { insertAudit } from '../store/audit.repo.js';
import { auditRow, SYSTEM, type AuditActor } from './audit.service.js';
import { forgetCachedUser, type UserRow } from '../store/users.repo.js';
import { announceChange } from '../store/cache-bus.js';
import { findUser, type Ctx } from './users.service.js';

/** `+N` adds, `-N` takes (never below zero), `=N` sets. */
export function parseCreditChange(spec: string): { op: '+' | '-' | '='; n: number } {
  const m = /^([+=-])(\d{1,10})$/.exec(spec.trim());
  if (!m)
    throw new HttpError('INVALID_PARAMETER', `"${spec}" is not a credit change: write +N, -N or =N`, { status: 422 });
  return { op: m[1] as '+' | '-' | '=', n: Number(m[2]) };
}

async function userOrThrow(ctx: Ctx, idOrName: string): Promise<UserRow> {
  const user = await findUser(ctx, idOrName);
  if (!user) throw notFound(`user ${idOrName}`);
  return user;
}

export async function changeCredits(
  ctx: Ctx,
  idOrName: string,
  spec: string,
  actor: AuditActor = SYSTEM,
): Promise<{ user: string; before: number; credits: number }> {
  const change = parseCreditChange(spec);
  const user = await userOrThrow(ctx, idOrName);
  // Under the user's credit lock (as every spend takes it), with its audit entry in the same commit.
  const { before, credits } = await ctx.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `credits:user:${user.id}`);
    const before = await creditsOf(trx, user.id);
    const credits = change.op === '=' ? change.n : Math.max(0, before + (change.op === '+' ? change.n : -change.n));
    await trx.updateTable('users').set({ credits }).where('id', '=', user.id).execute();
    await insertAudit(
      trx,
      auditRow(ctx.now(), actor, {
        action: 'user.credits_changed',
        targetType: 'user',
        targetId: user.id,
        subjectUserId: user.id,
        before: { credits: before },
        after: { credits },
      }),
    );
    return { before, credits };
  });
  forgetCachedUser(ctx.db, user.id);
  // Other instances drop the user row they cached (balance, plan) before this returns.
  await announceChange(ctx.db);
  return { user: user.name, before, credits };
}

export async function setPlan(
  ctx: Ctx,
  idOrName: string,
  plan: 'free' | 'paid',
  actor: AuditActor = SYSTEM,
): Promise<{ user: string; plan: 'free' | 'paid' }> {
  const user = await userOrThrow(ctx, idOrName);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ plan }).where('id', '=', user.id).execute();
    await insertAudit(
      trx,
      auditRow(ctx.now(), actor, {
        action: 'user.plan_changed',
        targetType: 'user',
        targetId: user.id,
        subjectUserId: user.id,
        before: { plan: user.plan },
        after: { plan },
      }),
    );
  });
  forgetCachedUser(ctx.db, user.id);
  await announceChange(ctx.db);
  return { user: user.name, plan };
}
