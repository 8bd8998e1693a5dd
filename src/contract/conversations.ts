import { z } from 'zod';
import { strictFields, textInt } from './fields.js';
import { defineRoute } from './route.js';
import { V2ErrorBody } from './errors.js';
import { v2Envelope, v2Page } from './envelopes.js';
import { QUERY_TEXT } from './chat.js';

export const ConversationStarted = z.object({
  stream_key: z.string(),
  thread_short_id: z.string(),
  live_doc_short_id: z.string(),
});
export type ConversationStarted = z.infer<typeof ConversationStarted>;

/** One question of a thread and its answer (null while it is still being written, or if it failed). */
export const ConversationTurn = z.object({ query: z.string(), answer: z.string().nullable(), created_at: z.string() });

/** A thread in a listing (local addition: the spec lists no conversations). */
export const ConversationSummary = z.object({
  thread_short_id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  live_doc_short_id: z.string(),
  turn_count: z.number().int(),
});

export const ConversationDetail = z.object({
  thread_short_id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  live_doc_short_id: z.string(),
  /** Local addition: the thread's questions and answers, oldest first. */
  turns: z.array(ConversationTurn),
});

export const ListConversationsQuery = z.object({
  live_doc_short_id: z.string().min(1).max(100).optional(),
  page: textInt({ min: 1, max: 100_000, default: 1 }),
  size: textInt({ min: 1, max: 100, default: 20 }),
});

/**
 * The query's 1-2000 bound is checked by the service so that over-long is QUERY_TOO_LONG. Unknown
 * fields are refused: a misspelt live_doc_short_id would otherwise start a new LiveDoc.
 */
export const CreateConversationRequest = strictFields({
  query: z.string().meta(QUERY_TEXT),
  live_doc_short_id: z.string().min(1).max(100).optional(),
  selected_resource_ids: z.array(z.string().min(1).max(100)).max(50).optional(),
  /** Local addition: generated decks, pages and mindmaps may ground this answer (default false). */
  include_generated: z.boolean().optional(),
  skill_id: z.string().max(100).optional(),
  accept_language: z.string().max(35).optional(),
  device_id: z.string().max(200).optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
  ext: z.record(z.string(), z.unknown()).optional(),
});
export const FollowUpRequest = strictFields({
  query: z.string().meta(QUERY_TEXT),
  include_generated: z.boolean().optional(),
});
export const ThreadParams = z.object({ thread_short_id: z.string().min(1).max(100) });
export const StreamParams = z.object({ stream_key: z.string().min(1).max(200) });
/** offset: events already received; the stream resumes after them (Last-Event-ID works the same way). */
export const StreamQuery = z.object({ offset: textInt({ min: 0, max: 10_000_000 }).optional() });
/**
 * Last-Event-ID: what an EventSource sends when it reconnects (the id of the last event it saw). It
 * is newer than the URL the EventSource reuses, so it wins over `offset`; an empty one means none.
 */
export const StreamHeaders = z.object({ 'last-event-id': textInt({ min: 0, max: 10_000_000 }).optional() });

/** One event of the conversation stream (spec 6), as the client library yields it. */
export type StreamEvent =
  | { offset: number; event: 'message'; data: { content: string } }
  | { offset: number; event: 'done'; data: Record<string, never> }
  | { offset: number; event: 'error'; data: { message: string } };

const errors = { 400: V2ErrorBody, 401: V2ErrorBody, 403: V2ErrorBody, 404: V2ErrorBody, 502: V2ErrorBody } as const;
const base = { auth: 'bearer-key', family: 'v2', tag: 'conversations' } as const;

export const createConversation = defineRoute({
  ...base,
  id: 'conversations.create',
  method: 'POST',
  path: '/v2/conversations',
  summary: 'Start a conversation; open its stream right after',
  body: CreateConversationRequest,
  responses: { 200: v2Envelope(ConversationStarted), ...errors },
});
export const followUp = defineRoute({
  ...base,
  id: 'conversations.followUp',
  method: 'POST',
  path: '/v2/conversations/{thread_short_id}/follow_up',
  summary: 'Ask again in the same thread',
  params: ThreadParams,
  body: FollowUpRequest,
  responses: { 200: v2Envelope(ConversationStarted), ...errors },
});
export const listConversations = defineRoute({
  ...base,
  id: 'conversations.list',
  method: 'GET',
  path: '/v2/conversations',
  summary: 'Your conversations, most recently updated first (local addition)',
  query: ListConversationsQuery,
  responses: { 200: v2Envelope(v2Page(ConversationSummary)), ...errors },
});
export const getConversation = defineRoute({
  ...base,
  id: 'conversations.get',
  method: 'GET',
  path: '/v2/conversations/{thread_short_id}',
  summary: 'Conversation detail',
  params: ThreadParams,
  responses: { 200: v2Envelope(ConversationDetail), ...errors },
});
export const streamConversation = defineRoute({
  ...base,
  id: 'conversations.stream',
  method: 'GET',
  path: '/v2/conversations/stream/{stream_key}',
  summary: 'Server-sent events: message chunks, then done or error; ?offset=N resumes after N events',
  params: StreamParams,
  query: StreamQuery,
  envelope: false,
  responses: {
    200: { contentType: 'text/event-stream', description: 'event stream (spec 6)' },
    ...errors,
    410: V2ErrorBody,
  },
  stream: {
    status: 200,
    description: 'message events with answer text, then one done or error event; each id is the offset to resume from',
    events: [
      { event: 'message', id: true, data: z.object({ content: z.string() }) },
      { event: 'done', id: true, data: z.object({}) },
      { event: 'error', id: true, data: z.object({ message: z.string() }) },
    ],
  },
});

export const conversationRoutes = [
  createConversation,
  listConversations,
  streamConversation,
  followUp,
  getConversation,
];
