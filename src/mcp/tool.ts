import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { McpApi } from './api.js';

/** What a tool's run gets: the caller's client, the request's abort signal, and progress reporting. */
export interface ToolContext {
  api: McpApi;
  /** Aborted when the MCP client cancels the call (notifications/cancelled) or the session ends. */
  signal: AbortSignal;
  /** A progress notification, sent only when the call asked for them (a progressToken); `progress` only grows. */
  progress: (progress: number, message: string, total?: number) => Promise<void>;
}

/** A tool's answer: the structured result (its outputSchema), the text an agent reads, and pictures. */
export interface ToolOutput<O> {
  structured: O;
  /** Defaults to the structured result as JSON. */
  text?: string;
  images?: Array<{ data: string; mimeType: string }>;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** What the tool does and when to use it, in words an agent can act on. */
  description: string;
  input: I;
  output: O;
  annotations?: ToolAnnotations;
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolOutput<z.output<O>>>;
}

/** Typed at the definition; the table holds them as ToolDef. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef {
  return def;
}

/** The MCP resource URI of a LiveDoc, or of one of its resources. */
export const livedocUri = (id: string) => `facet://livedocs/${encodeURIComponent(id)}`;
export const resourceUri = (id: string, rid: string) => `${livedocUri(id)}/resources/${encodeURIComponent(rid)}`;
