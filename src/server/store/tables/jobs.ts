import type { Generated } from 'kysely';

/**
 * The job queue, projects and their tasks, and the processes sharing one database (the cache bus). The
 * Database interface (database.ts) names every table.
 */

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

/** A process on the shared database (PostgreSQL) and the newest cache announcement it applied. */
export interface CacheInstancesTable {
  id: string;
  heartbeat_ms: number;
  acked_epoch: number;
  files_id: string | null;
}

export interface CacheEpochTable {
  id: number;
  n: number;
}
