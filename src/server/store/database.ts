import type { SocialTables } from './social/tables.js';
import type { ColumnType, Generated } from 'kysely';

/**
 * Every table's row type. Dates are ISO 8601 text and booleans 0/1 integers in both dialects, so
 * repositories map rows the same way whichever database holds them.
 */
/** One change of a user's balance made by a feature (migration 0015_landing_pages). */
export interface CreditLedgerTable {
  id: string;
  user_id: string;
  /** Negative: credits taken; positive: given back. */
  delta: number;
  balance_after: number;
  /** landing_page (a charge), landing_page_refund. */
  reason: string;
  task_id: string | null;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface UsersTable {
  id: string;
  name: string;
  role: 'admin' | 'user';
  plan: 'free' | 'paid';
  credits: number;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  hash: string;
  status: 'active' | 'frozen';
  created_at: string;
  expires_at: string | null;
  frozen_at: string | null;
  last_used_at: string | null;
  /** Soft delete keeps the name for the usage report; a deleted key never authenticates. */
  deleted_at: string | null;
}

/** A browser session (the facet_session cookie); logout deletes its row (migration 0023). */
export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the cookie's value; the value itself is never stored. */
  hash: string;
  created_at: string;
  /** Recorded at most once a minute; the session ends after a long enough idle time. */
  last_used_at: string;
  /** The absolute end, however active the session is. */
  expires_at: string;
}

export interface UsageRecordsTable {
  id: Generated<number>;
  api_key_id: string | null;
  user_id: string;
  task_id: string | null;
  model: string;
  operation: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  web_searches: number;
  /** Cost in billionths of a USD: integer sums stay exact where float sums drift. */
  cost_nano_usd: ColumnType<number, number, number>;
  created_at: string;
}

/** An administrator's list/hide decision for one catalog model. */
export interface ModelListingTable {
  model_id: string;
  listed: 0 | 1;
  updated_at: string;
  updated_by: string | null;
}

export interface LiveDocsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  icon: string;
  created_at: string;
  modified_at: string;
}

export interface LiveDocSharesTable {
  livedoc_id: string;
  user_id: string;
  created_at: string;
}

export interface ResourcesTable {
  id: string;
  livedoc_id: string;
  title: string;
  link: string;
  snippet: string;
  thumbnail: string;
  resource_type: string;
  resource_key: string;
  status: string;
  source: string;
  /** What the content operation reports as type: text, document, image, ai_ppt, ... */
  content_type: string;
  /** Extracted or authored text (Markdown for ai_doc); null when the format has none (images). */
  text: string | null;
  /** Relative to the files dir; only resources with a source file have one. */
  file_path: string | null;
  file_name: string | null;
  mime_type: string | null;
  created_at: string;
  modified_at: string;
}

export interface ResourceChunksTable {
  id: Generated<number>;
  resource_id: string;
  livedoc_id: string;
  ordinal: number;
  /** Slide number for decks, page for PDFs; null otherwise. */
  page: number | null;
  /** The resource's title, indexed with every chunk; renaming the resource rewrites it. */
  resource_title: string;
  /** The section heading (or slide title) the chunk sits under. */
  title: string;
  content: string;
}

export interface RateLimitWindowsTable {
  /** key:<id>:minute, user:<id>:minute, user:<id>:hour */
  bucket: string;
  window_start: number;
  count: number;
}

export interface ChatMessagesTable {
  id: string;
  chat_id: string;
  user_id: string;
  query: string;
  answer: string;
  created_at: string;
}

export interface ConversationThreadsTable {
  id: string;
  user_id: string;
  livedoc_id: string;
  title: string;
  selected_resource_ids: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConversationTurnsTable {
  id: string;
  thread_id: string;
  query: string;
  /** Filled once the stream is done; the follow-up's context. */
  answer: string | null;
  stream_key: string;
  created_at: string;
}

export interface StreamsTable {
  key: string;
  user_id: string;
  status: 'open' | 'done' | 'error';
  created_at: string;
  expires_at: string;
  /** The instance writing it (PostgreSQL, several instances); null on SQLite. */
  writer: string | null;
}

export interface StreamEventsTable {
  stream_key: string;
  seq: number;
  type: string;
  data: string;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON text. */
  payload: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  /** Runs of this job cut short by the server's death (migration 0023); see jobs/queue.ts. */
  crashes: number;
  run_after: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  cancel_requested: number;
  error: string | null;
  /** JSON text or null. */
  result: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

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

export interface JobLogsTable {
  id: Generated<number>;
  job_id: string;
  at: string;
  line: string;
}

export interface ProjectsTable {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  default_for: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectSitesTable {
  id: string;
  project_id: string;
  url: string;
  title: string | null;
  created_at: string;
}

export interface ProjectFilesTable {
  id: string;
  project_id: string;
  name: string;
  size: number;
  mime_type: string;
  sha256: string;
  created_at: string;
}

export interface TasksTable {
  id: string;
  user_id: string;
  api_key_id: string | null;
  project_id: string;
  site_id: string | null;
  kind: 'illustration' | 'screenshot';
  /** JSON text of the task's parameters (prompt, url, size, ...). */
  params: string;
  job_id: string;
  created_at: string;
}

/**
 * Usage summed per key, user, model and UTC day, kept in the same transaction as each usage record:
 * the usage report reads these instead of every record. No key is '' (a primary key column cannot
 * be null everywhere).
 */
export interface UsageRollupsTable {
  api_key_id: string;
  user_id: string;
  model: string;
  day: string;
  calls: ColumnType<number, number, number>;
  input_tokens: ColumnType<number, number, number>;
  output_tokens: ColumnType<number, number, number>;
  cache_read_tokens: ColumnType<number, number, number>;
  cache_write_tokens: ColumnType<number, number, number>;
  web_searches: ColumnType<number, number, number>;
  cost_nano_usd: ColumnType<number, number, number>;
  first_call_at: string;
  last_call_at: string;
}

/** Rows per owner of a list whose pages answer a total (store/list-totals.repo.ts). */
export interface ListTotalsTable {
  owner_id: string;
  list: string;
  n: number;
}

export interface WebExtractCacheTable {
  key: string;
  url: string;
  /** JSON of the extraction data. */
  result: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  /** The API key the Idempotency-Key belongs to. */
  scope: string;
  key: string;
  request_hash: string;
  state: 'pending' | 'done';
  job_id: string | null;
  created_at: string;
  expires_at: string;
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

/** A slide or landing-page task (spec 2.6): its row outlives the job that runs it. */
export interface DocTasksTable {
  id: string;
  kind: string;
  user_id: string;
  api_key_id: string | null;
  livedoc_id: string;
  biz_id: string;
  job_id: string;
  /** JSON of the validated request body. */
  request: string;
  /** JSON the kind's runner returned, once completed. */
  result: string | null;
  outcome: 'completed' | 'failed' | 'pending' | 'canceled' | 'expired' | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A process on the shared database (PostgreSQL) and the newest cache announcement it applied. */
export interface CacheInstancesTable {
  id: string;
  heartbeat_ms: number;
  acked_epoch: number;
  files_id: string | null;
}

/** One audit entry (migration 0024_audit_log): append-only, pruned only by the retention sweep. */
export interface AuditLogTable {
  id: string;
  at: string;
  /** key, token, cookie (a user's credential), local-admin (offline commands) or system (the server itself). */
  actor_kind: string;
  actor_user_id: string | null;
  /** The key id or session id the change was made with; never a secret. */
  actor_credential_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** The user the change is about (a key's owner), so users see changes made to their things. */
  subject_user_id: string | null;
  request_id: string | null;
  client_ip: string | null;
  user_agent: string | null;
  /** JSON of the changed fields before and after; null where there was no before (a create) or after (a delete). */
  before: string | null;
  after: string | null;
}

export interface CacheEpochTable {
  id: number;
  n: number;
}

export interface Database {
  list_totals: ListTotalsTable;
  usage_rollups: UsageRollupsTable;
  settings: SettingsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  usage_records: UsageRecordsTable;
  model_listing: ModelListingTable;
  livedocs: LiveDocsTable;
  livedoc_shares: LiveDocSharesTable;
  livedoc_resources: ResourcesTable;
  resource_chunks: ResourceChunksTable;
  rate_limit_windows: RateLimitWindowsTable;
  chat_messages: ChatMessagesTable;
  conversation_threads: ConversationThreadsTable;
  conversation_turns: ConversationTurnsTable;
  streams: StreamsTable;
  stream_events: StreamEventsTable;
  jobs: JobsTable;
  job_logs: JobLogsTable;
  projects: ProjectsTable;
  project_sites: ProjectSitesTable;
  project_files: ProjectFilesTable;
  tasks: TasksTable;
  social_users: SocialTables['social_users'];
  social_posts: SocialTables['social_posts'];
  social_terms: SocialTables['social_terms'];
  beta_review_tasks: BetaReviewTasksTable;
  beta_callback_deliveries: BetaCallbackDeliveriesTable;
  beta_data_rows: BetaDataRowsTable;
  beta_data_imports: BetaDataImportsTable;
  beta_backlinks: BetaBacklinksTable;
  beta_backlink_sets: BetaBacklinkSetsTable;
  web_extract_cache: WebExtractCacheTable;
  idempotency_keys: IdempotencyKeysTable;
  scrape_jobs: ScrapeJobsTable;
  scrape_pages: ScrapePagesTable;
  subtitle_tracks: SubtitleTracksTable;
  doc_tasks: DocTasksTable;
  cache_instances: CacheInstancesTable;
  cache_epoch: CacheEpochTable;
  ppt_themes: PptThemesTable;
  slide_decks: SlideDecksTable;
  credit_ledger: CreditLedgerTable;
  audit_log: AuditLogTable;
  model_api_stored: ModelApiStoredTable;
}

/** A stored response or thread message that a later turn continues from (migration 0025_stored_responses). */
export interface ModelApiStoredTable {
  /** resp_… (a stored response) or msg_… (a thread's last reply). */
  id: string;
  kind: 'response' | 'thread';
  /** The API key (or user) it belongs to: no one else reads it. */
  owner: string;
  /** JSON: the conversation so far and, for a response, the response object. */
  body: string;
  bytes: number;
  items: number;
  /** A thread message another turn has continued from (a message is continued once). */
  continued_at: string | null;
  created_at: string;
  expires_at: string;
}

/** A user's custom slide theme (migration 0014_slides). */
export interface PptThemesTable {
  id: string;
  user_id: string;
  title: string;
  subtitle: string;
  description: string;
  spec: string;
  created_at: string;
}

/** A deck a slide task wrote: the viewer page and the task's result read it. */
export interface SlideDecksTable {
  biz_id: string;
  task_id: string;
  user_id: string;
  livedoc_id: string;
  resource_id: string;
  theme_id: string;
  title: string;
  slides: string;
  previews: number;
  created_at: string;
}
