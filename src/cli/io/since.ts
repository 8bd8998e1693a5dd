import { InvalidArgumentError } from 'commander';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Commander parser for a point in time: a duration back from now (30m, 24h, 7d, 2w) or an ISO 8601
 * date or time (2026-01-31, 2026-01-31T12:00:00Z). Returns the ISO time the server filters on.
 */
export function sinceOption(now: () => Date = () => new Date()) {
  return (value: string): string => {
    const d = /^(\d{1,6})([smhdw])$/.exec(value.trim());
    if (d) return new Date(now().getTime() - Number(d[1]) * UNIT_MS[d[2]]).toISOString();
    const t = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())
      ? Date.parse(value.trim())
      : NaN;
    if (Number.isNaN(t))
      throw new InvalidArgumentError('expected a duration back from now (30m, 24h, 7d, 2w) or an ISO date/time');
    return new Date(t).toISOString();
  };
}
