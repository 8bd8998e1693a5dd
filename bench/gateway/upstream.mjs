// A minimal OpenAI-compatible upstream that answers at once: the baseline the gateway is measured against.
// A request with tools whose last message is the user's gets a tool call; any other, a text answer.
import http from 'node:http';

const toolCall = JSON.stringify({
  id: 'c2',
  object: 'chat.completion',
  created: 1,
  model: 'bench',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_bench1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 80, completion_tokens: 18, total_tokens: 98 },
});

const body = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'bench',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'The quick brown fox jumps over the lazy dog.' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 24, completion_tokens: 10, total_tokens: 34 },
});

const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const parsed = raw.includes('"tools"') ? JSON.parse(raw) : null;
    const answer = parsed?.tools?.length && parsed.messages.at(-1)?.role === 'user' ? toolCall : body;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
