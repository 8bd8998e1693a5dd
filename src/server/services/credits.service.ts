import { HttpError, notFound } from '../errors.js';
import { adjustCredits, setCredits } from '../store/credits.repo.js';
import { forgetCachedUser, type UserRow } from '../store/users.repo.js';
import { announceChange } from '../store/cache-bus.js';
import { findUser, type Ctx } from './users.service.js';

/** `+N` adds, `-N` takes (never below zero), `=N` sets. */
export function parseCreditChange(spec: string): { op: '+' | '-' | '='; n: number } {
  const m = /^([+=-])(\d{1,10})$/.exec(spec.trim());
  if (!m) throw new HttpError('INVALID_PARAMETER', `"${spec}" is not a credit change: write +N, -N or =N`, { status: 422 });
  return { op: m[1] as '+' | '-' | '=', n: Number(m[2]) };
}

async function userOrThrow(ctx: Ctx, idOrName: string): Promise<UserRow> {
  const user = await findUser(ctx, idOrName);
  if (!user) throw notFound(`user ${idOrName}`);
  return user;
}

export async function changeCredits(ctx: Ctx, idOrName: string, spec: string): Promise<{ user: string; before: number; credits: number }> {
  const change = parseCreditChange(spec);
  const user = await userOrThrow(ctx, idOrName);
  const credits = change.op === '=' ? await setCredits(ctx.db, user.id, change.n) : await adjustCredits(ctx.db, user.id, change.op === '+' ? change.n : -change.n);
  // Other instances drop the user row they cached (balance, plan) before this returns.
  await announceChange(ctx.db);
  return { user: user.name, before: user.credits, credits };
}

export async function setPlan(ctx: Ctx, idOrName: string, plan: 'free' | 'paid'): Promise<{ user: string; plan: 'free' | 'paid' }> {
  const user = await userOrThrow(ctx, idOrName);
  await ctx.db.updateTable('users').set({ plan }).where('id', '=', user.id).execute();
  forgetCachedUser(ctx.db, user.id);
  await announceChange(ctx.db);
  return { user: user.name, plan };
}
