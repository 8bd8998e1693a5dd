import type { Generated } from 'kysely';

/**
 * The data APIs: the beta SEO endpoints and their imported data, web extraction and scraping,
 * subtitles. The Database interface (database.ts) names every table.
 */

/** A review task of the beta SEO endpoints; its job has the same id. */
export interface BetaReviewTasksTable {
  id: string;
  user_id: string;
  platform: string;
  /** JSON text: the task as posted (the envelope's data echo). */
  data: string;
  tag: string | null;
  status: 'queued' | 'completed' | 'failed';
  /** JSON text or null until completed. */
  result: string | null;
  error: string | null;
  cost_micro_usd: number;
  created_at: string;
  completed_at: string | null;
  /** Set when the result was read by id: the task leaves the ready list. */
  collected_at: string | null;
}

/** One attempt at a pingback or postback. */
export interface BetaCallbackDeliveriesTable {
  id: Generated<number>;
  task_id: string;
  kind: 'pingback' | 'postback';
  url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  /** 1 when the callback answered 2xx. */
  delivered: number;
  at: string;
}

/** A row imported with `facet serve data import`: it replaces the generated data of its subject. */
export interface BetaDataRowsTable {
  family: 'backlinks' | 'income' | 'insiders';
  /** The target domain or page URL (backlinks) or the ticker (financials), normalised. */
  subject: string;
  /** Order of the rows in the imported file. */
  seq: number;
  /** JSON text: the row. */
  data: string;
}

/** The current import of a subject (migration 0020_beta_speed): a new version on every import. */
export interface BetaDataImportsTable {
  family: BetaDataRowsTable['family'];
  subject: string;
  /** Unique per import: whoever holds rows of this version holds the subject's current rows. */
  version: string;
  row_count: number;
  imported_at: string;
}

/**
 * A local backlink (migration 0027): a column per filterable field, booleans as 0/1, lists and
 * indirect_link_path as JSON text, ranks also on the 0-100 scale (`rank_100`...).
 */
export interface BetaBacklinksTable {
  subject: string;
  seq: number;
  [column: string]: string | number | null;
}

/** The current backlinks of a subject: generated on first use (seeded) or imported; a new version per import. */
export interface BetaBacklinkSetsTable {
  subject: string;
  origin: 'seeded' | 'imported';
  version: string;
  row_count: number;
}

export interface WebExtractCacheTable {
  key: string;
  url: string;
  /** JSON of the extraction data. */
  result: string;
  created_at: string;
}

export interface ScrapeJobsTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  /** JSON of the validated request body. */
  request: string;
  total: number;
  created_at: string;
}

export interface ScrapePagesTable {
  job_id: string;
  idx: number;
  url: string;
  state: 'pending' | 'started' | 'done' | 'failed';
  result: string | null;
  error: string | null;
  finished_at: string | null;
}

export interface SubtitleTracksTable {
  video_code: string;
  language: string;
  kind: 'manual' | 'generated';
  title: string;
  /** JSON array of {start, duration, text}, seconds. */
  cues: string;
  source: 'import' | 'seed' | 'upstream';
  created_at: string;
}
