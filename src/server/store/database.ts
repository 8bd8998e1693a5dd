import type { SocialTables } from './social/tables.js';
import type {
  SettingsTable,
  UsersTable,
  ApiKeysTable,
  SessionsTable,
  UsageRecordsTable,
  UsageRollupsTable,
  ModelListingTable,
  RateLimitWindowsTable,
  IdempotencyKeysTable,
  CreditLedgerTable,
  ListTotalsTable,
  AuditLogTable,
} from './tables/accounts.js';
import type {
  LiveDocsTable,
  LiveDocSharesTable,
  ResourcesTable,
  ResourceChunksTable,
  ChatMessagesTable,
  ConversationThreadsTable,
  ConversationTurnsTable,
  StreamsTable,
  StreamEventsTable,
  ModelApiStoredTable,
  DocTasksTable,
  PptThemesTable,
  SlideDecksTable,
} from './tables/livedocs.js';
import type {
  JobsTable,
  JobLogsTable,
  ProjectsTable,
  ProjectSitesTable,
  ProjectFilesTable,
  TasksTable,
  CacheInstancesTable,
  CacheEpochTable,
} from './tables/jobs.js';
import type {
  BetaReviewTasksTable,
  BetaCallbackDeliveriesTable,
  BetaDataRowsTable,
  BetaDataImportsTable,
  BetaBacklinksTable,
  BetaBacklinkSetsTable,
  WebExtractCacheTable,
  ScrapeJobsTable,
  ScrapePagesTable,
  SubtitleTracksTable,
} from './tables/data-apis.js';

export type * from './tables/accounts.js';
export type * from './tables/livedocs.js';
export type * from './tables/jobs.js';
export type * from './tables/data-apis.js';

/**
 * Every table's row type, by table name; the row types live beside the others of their area in
 * ./tables/. Dates are ISO 8601 text and booleans 0/1 integers in both dialects, so repositories map
 * rows the same way whichever database holds them.
 */
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
