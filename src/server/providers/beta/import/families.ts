import { IncomeStatement, InsiderTrade } from '../../../../contract/beta-financial.js';
import { BACKLINK_FIELDS, parseTarget, type StoredBacklink } from '../local/backlinks-data.js';
import { ImportError, type SourceRecord } from './read-records.js';

/**
 * What each importable family needs of a record and how it becomes a stored row: backlinks (one
 * row per link, `target` names whose), income (income statements, by `ticker`), insiders (insider
 * trades, by `ticker`). Imported rows replace the generated data of their subject.
 */
export const FAMILIES = ['backlinks', 'income', 'insiders'] as const;
export type Family = (typeof FAMILIES)[number];

const LIST_FIELDS = new Set(
  Object.entries(BACKLINK_FIELDS)
    .filter(([, t]) => t === 'string[]')
    .map(([f]) => f),
);

/** A field as text: JSON Lines may give a number or an object where CSV gives a string. */
const fieldText = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

function hostOf(url: string, what: string, at: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    throw new ImportError(`${at}: ${what} is not an absolute URL`);
  }
}

/**
 * A backlink record: target, url_from and url_to are required; other fields get neutral defaults.
 * Dates the record does not give stay null: an unknown first or last sighting is no date, not 1970.
 */
function backlink(r: Record<string, unknown>, at: string): { subject: string; row: StoredBacklink } {
  const target = parseTarget(fieldText(r.target ?? ''));
  if (!target) throw new ImportError(`${at}: target must be a domain (no scheme, no www) or an absolute page URL`);
  if (!r.url_from || !r.url_to) throw new ImportError(`${at}: url_from and url_to are required`);
  const urlFrom = fieldText(r.url_from);
  const urlTo = fieldText(r.url_to);
  const domainFrom = (r.domain_from as string) ?? hostOf(urlFrom, 'url_from', at);
  const domainTo = (r.domain_to as string) ?? hostOf(urlTo, 'url_to', at);
  const row: Record<string, unknown> = {
    type: 'backlink',
    domain_from: domainFrom,
    domain_from_country: null,
    domain_from_ip: '',
    domain_from_is_ip: false,
    domain_from_platform_type: [],
    domain_from_rank: 0,
    page_from_rank: 0,
    rank: 0,
    backlink_spam_score: 0,
    url_from: urlFrom,
    url_from_https: urlFrom.startsWith('https:'),
    domain_to: domainTo,
    url_to: urlTo,
    url_to_https: urlTo.startsWith('https:'),
    tld_from: domainFrom.slice(domainFrom.indexOf('.') + 1),
    url_to_status_code: null,
    url_to_spam_score: null,
    url_to_redirect_target: null,
    page_from_title: null,
    page_from_encoding: 'utf-8',
    page_from_language: 'en',
    page_from_size: 0,
    page_from_status_code: 200,
    page_from_external_links: 0,
    page_from_internal_links: 0,
    first_seen: null,
    prev_seen: null,
    last_seen: null,
    item_type: 'anchor',
    attributes: null,
    dofollow: true,
    original: false,
    is_new: false,
    is_lost: false,
    is_broken: false,
    is_indirect_link: false,
    indirect_link_path: null,
    alt: null,
    image_url: null,
    anchor: null,
    text_pre: null,
    text_post: null,
    semantic_location: null,
    links_count: 1,
    group_count: 1,
  };
  for (const [field, value] of Object.entries(r)) {
    if (field === 'target' || value === null || value === undefined) continue;
    const type = BACKLINK_FIELDS[field];
    if (!type && field !== 'indirect_link_path') throw new ImportError(`${at}: unknown backlink field ${field}`);
    let v = value;
    if (LIST_FIELDS.has(field) && typeof v === 'string') v = v.split('|').filter(Boolean);
    const ok =
      type === 'number'
        ? typeof v === 'number'
        : type === 'boolean'
          ? typeof v === 'boolean'
          : type === 'string[]'
            ? Array.isArray(v) && v.every((x) => typeof x === 'string')
            : type
              ? typeof v === 'string'
              : true;
    if (!ok) throw new ImportError(`${at}: ${field} must be a ${type === 'string[]' ? 'list of strings' : type}`);
    row[field] = v;
  }
  row.internal = domainFrom === target.domain || domainFrom.endsWith(`.${target.domain}`);
  row.to_subdomain = !target.pageUrl && domainTo !== target.domain;
  return { subject: target.subject, row: row as unknown as StoredBacklink };
}

function financial(schema: typeof IncomeStatement | typeof InsiderTrade, r: Record<string, unknown>, at: string) {
  const parsed = schema.safeParse({ ...r, ticker: typeof r.ticker === 'string' ? r.ticker.toUpperCase() : r.ticker });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportError(`${at}: ${issue.path.join('.') || 'record'}: ${issue.message}`);
  }
  return { subject: parsed.data.ticker, row: parsed.data };
}

/** A record of a file as its subject and stored row; a bad record fails the import, saying where it is. */
export function storedRow(family: Family, { record, index, line }: SourceRecord): { subject: string; row: unknown } {
  const at = `line ${line}, record ${index}`;
  return family === 'backlinks'
    ? backlink(record, at)
    : financial(family === 'income' ? IncomeStatement : InsiderTrade, record, at);
}
