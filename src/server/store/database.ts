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

/** An administrator's list/hide decision for one catalog model. */
export interface ModelListingTable {
  model_id: string;
  listed: 0 | 1;
  updated_at: string;
  updated_by: string | null;
}

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  usage_records: UsageRecordsTable;
  model_listing: ModelListingTable;
}
