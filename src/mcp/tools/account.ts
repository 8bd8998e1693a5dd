import { z } from 'zod';
import { MODEL_KINDS } from '../../contract/model-api-models.js';
import { defineTool } from '../tool.js';

export const modelsList = defineTool({
  name: 'models_list',
  title: 'List models',
  description:
    'The models this platform offers through its model APIs (/api/v1), with their kind (chat, image_generation, video_generation, decisions) and owner; kind filters.',
  input: z.object({ kind: z.enum(MODEL_KINDS).optional().describe('only models of this kind') }),
  output: z.object({
    models: z.array(z.object({ id: z.string(), kind: z.enum(MODEL_KINDS), owned_by: z.string() })),
  }),
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const list = await api.modelApi.list();
    return {
      structured: {
        models: list.data
          .filter((m) => !args.kind || m.model_kind === args.kind)
          .map((m) => ({ id: m.id, kind: m.model_kind, owned_by: m.owned_by })),
      },
    };
  },
});

const Counters = z.object({
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cost_usd: z.number(),
});
const ZERO = { calls: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_usd: 0 };
const countersOf = (c: z.infer<typeof Counters>) => ({
  calls: c.calls,
  input_tokens: c.input_tokens,
  output_tokens: c.output_tokens,
  total_tokens: c.total_tokens,
  cost_usd: c.cost_usd,
});

export const usageSummary = defineTool({
  name: 'usage_summary',
  title: 'Credits and usage',
  description:
    "Who this key belongs to, its plan, the credits left and the latest credit charges and refunds (landing pages; social search is billed per result), and the model calls made with this key and all of the user's keys: calls, tokens and cost in USD, per model. Check it before a paid call, or after an 'insufficient credits' error.",
  input: z.object({ recent: z.number().int().min(1).max(100).default(10).describe('ledger entries to show') }),
  output: z.object({
    user: z.object({ id: z.string(), name: z.string(), plan: z.enum(['free', 'paid']), credits: z.number() }),
    key: z.object({ id: z.string(), name: z.string(), prefix: z.string(), status: z.string() }).nullable(),
    model_usage: z.object({
      this_key: Counters.nullable().describe('calls made with the key this session acts with'),
      all_keys: Counters.describe("all of the user's calls"),
      by_model: z.array(Counters.extend({ model: z.string() })).describe('this key, per model'),
    }),
    recent_charges: z.array(
      z.object({
        delta: z.number().int(),
        balance_after: z.number().int(),
        reason: z.string(),
        task_id: z.string().nullable(),
        at: z.string(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const [me, ledger, usage] = await Promise.all([
      api.keys.whoami(),
      api.landingPages.ledger({ page: 1, size: args.recent }),
      api.usage.own({ limit: 500 }),
    ]);
    const key = me.api_key;
    const mine = key ? usage.keys.find((k) => k.api_key_id === key.id) : undefined;
    return {
      structured: {
        user: { id: me.user.id, name: me.user.name, plan: me.user.plan, credits: me.user.credits },
        key: key ? { id: key.id, name: key.name, prefix: key.prefix, status: key.status } : null,
        model_usage: {
          this_key: key ? countersOf(mine ?? { ...ZERO }) : null,
          all_keys: countersOf(usage.totals),
          by_model: (mine?.models ?? []).map((m) => ({ model: m.model, ...countersOf(m) })),
        },
        recent_charges: ledger.items.map((e) => ({
          delta: e.delta,
          balance_after: e.balance_after,
          reason: e.reason,
          task_id: e.task_id,
          at: e.created_at,
        })),
      },
    };
  },
});
