import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { JournalEntry } from '../../src/server/http/response-journal.js';

type Schema = Record<string, unknown>;
interface MediaType {
  schema?: Schema;
  'x-itemSchema'?: { anyOf: Schema[] };
}
interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** How many schema errors one violation lists. */
const MAX_ERRORS = 5;

/**
 * Checks responses against an OpenAPI document as it was served: the path and method must be an
 * operation of it, the status one of its responses (or `default`), the content type one of that
 * response's media types, a JSON body valid for its schema, and each event of an event stream one
 * of the events its `x-itemSchema` lists. Knows nothing of the contract or zod, so a document the
 * generator gets wrong fails here just as a route that sends the wrong body does.
 */
export function createOpenApiChecker(document: OpenApiDocument) {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  const compiled = new WeakMap<Schema, ValidateFunction>();
  const validatorOf = (schema: Schema) => {
    let v = compiled.get(schema);
    // A `#/components/schemas/X` reference points into the document: compiled with the document's
    // components beside the schema, so the pointer resolves from the compiled root as it does there.
    if (!v)
      compiled.set(
        schema,
        (v = ajv.compile(document.components?.schemas ? { ...schema, components: document.components } : schema)),
      );
    return v;
  };
  const errorsOf = (schema: Schema, value: unknown): string | null => {
    const v = validatorOf(schema);
    if (v(value)) return null;
    return (v.errors ?? [])
      .slice(0, MAX_ERRORS)
      .map(
        (e) =>
          `${e.instancePath || '(root)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`,
      )
      .join('; ');
  };

  const templates = Object.keys(document.paths).map((template) => {
    const segments = template.split('/');
    const pattern = new RegExp(
      '^' +
        segments.map((s) => (/^\{\w+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/') +
        '$',
    );
    return { template, pattern, variables: segments.filter((s) => s.startsWith('{')).length };
  });

  /** The most literal template that matches wins, as OpenAPI asks (`/a/b` before `/a/{x}`). */
  function pathItemOf(pathname: string) {
    const found = templates.filter((t) => t.pattern.test(pathname)).sort((a, b) => a.variables - b.variables)[0];
    return found ? { template: found.template, item: document.paths[found.template] } : undefined;
  }

  function checkEvents(stream: string, itemSchema: { anyOf: Schema[] }, cut: boolean): string[] {
    const events: EventSourceMessage[] = [];
    let reconnect = false;
    const parser = createParser({ onEvent: (e) => events.push(e), onRetry: () => (reconnect = true) });
    parser.feed(stream);
    const problems: string[] = [];
    // A stream a shutting-down server ends asking the client to come back (`retry:`) is interrupted, not empty.
    if (events.length === 0 && !cut && !reconnect) problems.push('an event stream with no event');
    for (const ev of events) {
      const named = itemSchema.anyOf.filter((item) => {
        const props = item.properties as Record<string, Schema>;
        return ev.event === undefined
          ? !props.event
          : (props.event as { const?: string } | undefined)?.const === ev.event;
      });
      if (named.length === 0) {
        problems.push(`event ${ev.event ?? '(unnamed)'} is not described`);
        continue;
      }
      const failures: string[] = [];
      for (const item of named) {
        const props = item.properties as Record<string, Schema>;
        if (ev.id !== undefined && !props.id) {
          failures.push('carries an id the document does not describe');
          continue;
        }
        const data = props.data;
        if (data.contentMediaType === 'application/json') {
          let value: unknown;
          try {
            value = JSON.parse(ev.data);
          } catch {
            failures.push(`data is not JSON: ${ev.data.slice(0, 80)}`);
            continue;
          }
          const err = errorsOf(data.contentSchema as Schema, value);
          if (err === null) {
            failures.length = 0;
            break;
          }
          failures.push(err);
        } else {
          const err = errorsOf(data, ev.data);
          if (err === null) {
            failures.length = 0;
            break;
          }
          failures.push(err);
        }
      }
      if (failures.length > 0)
        problems.push(`event ${ev.event ?? '(unnamed)'}: ${failures.join(' | ')} in ${ev.data.slice(0, 200)}`);
    }
    return problems;
  }

  /** The violations of one response; empty when it is what the document says. */
  function check(entry: JournalEntry): string[] {
    const pathname = entry.url.split('?')[0];
    const where = `${entry.method} ${pathname} -> ${entry.status}`;
    // A path or method the platform does not have can only be refused: authentication comes first
    // inside a surface (401/403), then 404/405. There is no operation to hold the body to.
    const unknownIsFine = [401, 403, 404, 405].includes(entry.status);
    // The console (server/console/) is HTML for people, not part of the API the document describes.
    if (pathname === '/console' || pathname.startsWith('/console/')) return [];
    const found = pathItemOf(pathname);
    if (!found) return unknownIsFine ? [] : [`${where}: the path is not in the document`];
    const op = found.item[entry.method.toLowerCase()];
    if (!op) return unknownIsFine ? [] : [`${where}: ${found.template} has no ${entry.method} operation`];
    const response =
      op.responses[String(entry.status)] ?? op.responses[`${String(entry.status)[0]}XX`] ?? op.responses.default;
    if (!response) return [`${where}: status ${entry.status} is not a response of ${op.operationId}`];
    const label = `${where} (${op.operationId})`;
    const hasBody = entry.bytes > 0;
    if (!response.content) return hasBody ? [`${label}: a body where the document describes none`] : [];
    if (!entry.contentType) return hasBody ? [`${label}: a body without a content type`] : [];
    const media = entry.contentType.split(';')[0].trim().toLowerCase();
    const described = Object.keys(response.content);
    const key =
      described.find((k) => k.toLowerCase() === media) ??
      described.find((k) => k === `${media.split('/')[0]}/*` || k === '*/*');
    if (!key) return [`${label}: content type ${media} is not described (described: ${described.join(', ')})`];
    const mt = response.content[key];
    if (entry.body === null) return [];
    if (media === 'text/event-stream')
      return mt['x-itemSchema']
        ? checkEvents(entry.body, mt['x-itemSchema'], entry.cut).map((p) => `${label}: ${p}`)
        : [];
    if (!mt.schema || entry.cut) return [];
    let value: unknown;
    try {
      value = JSON.parse(entry.body);
    } catch {
      return [`${label}: the body is not JSON`];
    }
    const err = errorsOf(mt.schema, value);
    return err === null ? [] : [`${label}: ${err}`];
  }

  return { check };
}
