import type { OutputFormat } from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';

type Format = { type: 'json_schema'; schema: Record<string, unknown> } | null | undefined;

/**
 * Messages structured output: `output_config.format` ({type: "json_schema", schema}), or the older
 * beta spelling `output_format`. Both at once would leave which one applies in doubt, so that is
 * refused. The gateway then treats it as the OpenAI surfaces' json_schema format.
 */
export function messagesOutputFormat(body: {
  output_config?: { format?: Format };
  output_format?: Format;
}): OutputFormat | undefined {
  const current = body.output_config?.format ?? undefined;
  const older = body.output_format ?? undefined;
  if (current && older) {
    throw new HttpError('invalid_parameter', 'Give output_config.format or output_format, not both', {
      status: 400,
      extra: { param: 'output_format' },
    });
  }
  const f = current ?? older;
  return f ? { type: 'json_schema', name: 'output', schema: f.schema } : undefined;
}
