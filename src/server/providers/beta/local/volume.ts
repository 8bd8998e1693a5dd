import { TASK_STATUS, VOLUME_LIMITS, type VolumeResult } from '../../../../contract/beta-seo.js';
import { TaskError, type TaskOutcome } from '../envelope.js';
import { DATA_DATE, rng, seedOf } from '../seeded.js';
import { TaskFields } from '../task-fields.js';
import { LANGUAGES, LOCATIONS, findLanguage, findLocation } from './geo.js';

/**
 * Local search volume: a keyword's monthly history derives from a hash of keyword, location and
 * language, so the same keyword always has the same volume; search_volume is the mean of the last
 * 12 months. Ad-engine volume (use_clickstream false, where the location supports it) is the same
 * history rounded to two significant digits, as ad engines report ranges rather than counts.
 */

const FIELDS = [
  'keywords',
  'language_code',
  'language_name',
  'location_code',
  'location_name',
  'use_clickstream',
  'tag',
] as const;
const COST = { task: 0.01, keyword: 0.0001 };
const MAX_KEYWORD = 80;

const twoDigits = (n: number) => (n < 100 ? Math.round(n / 10) * 10 : Number(n.toPrecision(2)));

export function monthlySearches(keyword: string, location: number, language: string, adEngine: boolean) {
  const r = rng(seedOf('volume', keyword, location, language));
  // Longer keywords are searched less: a base that falls with the word count.
  const words = keyword.split(/\s+/).length;
  const base = Math.floor((200_000 * r() ** 4) / words ** 2) + 10;
  const season = r() * Math.PI * 2;
  const end = new Date(DATA_DATE);
  const months = [];
  for (let k = 0; k < 12; k++) {
    const d = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - k, 1));
    const v = Math.max(0, Math.round(base * (1 + 0.25 * Math.sin(season + d.getUTCMonth() / 2) + 0.1 * (r() - 0.5))));
    months.push({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, search_volume: adEngine ? twoDigits(v) : v });
  }
  return months;
}

export function volumeTask(task: Record<string, unknown>): TaskOutcome {
  const f = new TaskFields(task, FIELDS);
  const raw = task.keywords;
  if (raw === undefined || raw === null) throw new TaskError(TASK_STATUS.invalidField, 'keywords is required');
  if (!Array.isArray(raw) || raw.some((k) => typeof k !== 'string'))
    throw new TaskError(TASK_STATUS.invalidField, 'keywords must be an array of strings');
  if (raw.length === 0 || raw.length > VOLUME_LIMITS.maxKeywords)
    throw new TaskError(
      TASK_STATUS.invalidValue,
      `keywords holds 1 to ${VOLUME_LIMITS.maxKeywords} keywords; got ${raw.length}`,
    );
  const keywords = (raw as string[]).map((k) => k.trim().toLowerCase());
  const bad = keywords.find((k) => k.length === 0 || [...k].length > MAX_KEYWORD);
  if (bad !== undefined)
    throw new TaskError(
      TASK_STATUS.invalidValue,
      `each keyword has 1 to ${MAX_KEYWORD} characters; got ${JSON.stringify(bad)}`,
    );

  const langCode = f.string('language_code');
  const langName = f.string('language_name');
  if (langCode === undefined && langName === undefined)
    throw new TaskError(TASK_STATUS.invalidField, 'language_code or language_name is required');
  const language = findLanguage(langCode !== undefined ? { code: langCode } : { name: langName });
  if (!language)
    throw new TaskError(
      TASK_STATUS.invalidValue,
      `unknown language ${JSON.stringify(langCode ?? langName)}; known: ${LANGUAGES.map((l) => l.code).join(', ')}`,
    );
  const locCode = f.has('location_code') ? f.int('location_code', { min: 1, max: 9_999_999, default: 0 }) : undefined;
  const locName = f.string('location_name');
  if (locCode === undefined && locName === undefined)
    throw new TaskError(TASK_STATUS.invalidField, 'location_code or location_name is required');
  const location = findLocation(locCode !== undefined ? { code: locCode } : { name: locName });
  if (!location)
    throw new TaskError(
      TASK_STATUS.invalidValue,
      `unknown location ${JSON.stringify(locCode ?? locName)}; known: ${LOCATIONS.map((l) => `${l.code} ${l.name}`).join(', ')}`,
    );
  const clickstream = f.bool('use_clickstream', true) || !location.adEngine;
  f.tag();

  const unique = [...new Set(keywords)];
  const result: VolumeResult = {
    location_code: location.code,
    language_code: language.code,
    items_count: unique.length,
    items: unique.map((keyword) => {
      const months = monthlySearches(keyword, location.code, language.code, !clickstream);
      const mean = Math.round(months.reduce((s, m) => s + m.search_volume, 0) / months.length);
      return {
        keyword,
        use_clickstream: clickstream,
        search_volume: clickstream ? mean : twoDigits(mean),
        monthly_searches: months,
      };
    }),
  };
  return { result: [result], cost: COST.task + COST.keyword * unique.length };
}
