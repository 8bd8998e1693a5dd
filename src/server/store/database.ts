import type { ColumnType, Generated } from 'kysely';

/**
 * Every table's row type. Dates are ISO 8601 text and booleans 0/1 integers in both dialects, so
 * repositories map rows the same way whichever database holds them.
 */
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

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON text. */
  payload: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
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

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  usage_records: UsageRecordsTable;
  jobs: JobsTable;
  job_logs: JobLogsTable;
  projects: ProjectsTable;
  project_sites: ProjectSitesTable;
  project_files: ProjectFilesTable;
  tasks: TasksTable;
}
