/**
 * The server's messages are written for HTTP callers and may name a route ("list them with GET
 * /v2/ppt-themes"); a CLI user needs the command that does the same. Only routes a CLI command
 * lists are here; a route not here is left as the server wrote it.
 */
const COMMANDS: Record<string, string> = {
  'GET /v2/ppt-themes': 'facet slides themes',
  'GET /v2/livedocs': 'facet livedocs list',
  'GET /auth/api-keys': 'facet keys list',
};

/** The message with every known "METHOD /path" replaced by its CLI command. */
export function inCliTerms(message: string): string {
  return message.replace(/\b(GET|POST|PUT|PATCH|DELETE) (\/[\w/{}.-]*\w)/g, (route) =>
    COMMANDS[route] ? `\`${COMMANDS[route]}\`` : route,
  );
}
