import type { ColumnType, Generated } from 'kysely';

/**
 * Users, their credentials and sessions, and what they use and pay: keys, usage, credits, limits,
 * audit. The Database interface (database.ts) names every table.
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
  /** The API key a console sign-in used (migration 0031): the session ends with it. */
  api_key_id: string | null;
  /** The admin key's hash when a console sign-in used it (0033): another admin key ends the session. */
  admin_key_hash: string | null;
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

/** An administrator's list/hide decision for one catalog model. */
export interface ModelListingTable {
  model_id: string;
  listed: 0 | 1;
  updated_at: string;
  updated_by: string | null;
}

export interface RateLimitWindowsTable {
  /** key:<id>:minute, user:<id>:minute, user:<id>:hour */
  bucket: string;
  window_start: number;
  count: number;
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

/** Rows per owner of a list whose pages answer a total (store/list-totals.repo.ts). */
export interface ListTotalsTable {
  owner_id: string;
  list: string;
  n: number;
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
  /** The instance that made the entry (`--instance-id`, migration 0032); null for offline commands. */
  instance_id: string | null;
}
