import type { Generated } from 'kysely';

/**
 * LiveDocs and what hangs off them: resources and their chunks, chat, conversations and their streams,
 * stored model responses, slides and the document tasks that write them. The Database interface
 * (database.ts) names every table.
 */

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
  /** The headings the chunk sits under, outermost first, one per line; null for chunks made before them. */
  headings: string | null;
  content: string;
  /** Segmented copies the full-text index reads instead (scripts without spaces); null when not needed. */
  search_resource_title: string | null;
  search_title: string | null;
  search_content: string | null;
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

/** A stored response or thread message that a later turn continues from (migrations 0025, 0030). */
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
  /** The stored response this one continued (migration 0030): its body holds only this turn's items. */
  previous_id: string | null;
  created_at: string;
  expires_at: string;
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
  /** Previews are drawn after the task completes: drawing, drawn, or unavailable (no LibreOffice). */
  previews_state: 'drawing' | 'drawn' | 'unavailable';
  created_at: string;
}
