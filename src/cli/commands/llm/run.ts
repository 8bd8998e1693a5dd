import type { Deps } from '../../deps.js';
import { usageError } from '../../exit-codes.js';
import { readStdin } from '../../io/prompt.js';
import { requestBody, streamParser, textAndUsage, type Answer, type LlmOptions, type Usage } from './surfaces.js';

/** The prompt from stdin, when it is piped; a terminal there means the prompt was forgotten. */
async function promptFromStdin(deps: Deps): Promise<string> {
  if (deps.streams.stdin.isTTY) throw usageError('no prompt: give it as an argument or pipe it on stdin');
  return readStdin(deps.streams.stdin);
}

function reportUsage(deps: Deps, usage: Usage | undefined): void {
  if (!usage) return deps.io().info('usage: not reported');
  deps
    .io()
    .info(
      `usage: input ${usage.input} tokens, output ${usage.output}, cache read ${usage.cacheRead}, cache write ${usage.cacheWrite}; cost $${usage.cost === undefined ? '?' : usage.cost.toFixed(6)}`,
    );
}

export async function run(model: string, promptArg: string | undefined, opts: LlmOptions, deps: Deps): Promise<void> {
  const prompt = promptArg === undefined || promptArg === '-' ? await promptFromStdin(deps) : promptArg;
  if (prompt.trim() === '') throw usageError('the prompt is empty');
  const api = await deps.api('modelApi');
  const io = deps.io();
  const body = requestBody(opts.surface, model, prompt, opts);

  if (!opts.stream) {
    const answer: Answer =
      opts.surface === 'chat'
        ? { surface: 'chat', raw: await api.modelApi.chat(body as never) }
        : opts.surface === 'responses'
          ? { surface: 'responses', raw: await api.modelApi.responses(body as never) }
          : { surface: 'messages', raw: await api.modelApi.messages(body as never) };
    const { text, usage } = textAndUsage(answer);
    io.print(answer.raw, () => io.write(text.endsWith('\n') ? text : text + '\n'));
    if (opts.verbose) reportUsage(deps, usage);
    return;
  }

  const parse = streamParser(opts.surface);
  let usage: Usage | undefined;
  let ended = '\n';
  for await (const ev of api.modelApi.stream(opts.surface, body)) {
    // With --json each event's data is one line (NDJSON); it is still parsed, so an in-stream error fails the command.
    if (io.json && ev.data !== '[DONE]') {
      if (io.shaped) io.printJsonLine(JSON.parse(ev.data));
      else io.write(ev.data + '\n');
    }
    const step = parse(ev);
    if (step.text && !io.json) {
      io.write(step.text);
      ended = step.text.endsWith('\n') ? '' : '\n';
    }
    if (step.usage) usage = step.usage;
    if (step.done) break;
  }
  if (!io.json) io.write(ended);
  if (opts.verbose) reportUsage(deps, usage);
}
