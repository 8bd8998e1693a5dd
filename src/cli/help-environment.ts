/**
 * `facet help environment`: every FACET_* variable the CLI and `facet serve` read, one line each.
 * test/unit/cli/help-environment.test.ts greps src/ for FACET_ names and fails on one missing here.
 */
export const ENVIRONMENT: Array<{ title: string; vars: Array<[string, string]> }> = [
  {
    title: 'The CLI (each overrides the profile; --profile and --base-url override these)',
    vars: [
      ['FACET_PROFILE', 'the profile to use instead of the current one'],
      ['FACET_CONFIG_DIR', 'where config.json lives (default: the OS config dir, ~/.config/facet on Linux)'],
      ['FACET_BASE_URL', 'the platform base URL'],
      ['FACET_IMAGE_BASE_URL', 'where the image-service paths live, when mounted apart from the platform'],
      ['FACET_API_KEY', 'the API key'],
      ['FACET_ACCESS_TOKEN', 'the access token (key management, `facet keys`)'],
      ['FACET_ADMIN_KEY', "the deployment admin key, sent beside an administrator's API key"],
      ['FACET_DEFAULT_LIVEDOC', 'the LiveDoc `facet ask` uses without --livedoc'],
      ['FACET_LIVEDOC', 'the LiveDoc `facet livedocs resources …` works on without --livedoc or an id'],
      [
        'FACET_TIMEOUT_MS',
        'how long a request may go unanswered, in milliseconds (default 30000; web extract waits at least its page limit plus 15 s)',
      ],
      [
        'FACET_PAGER',
        'the pager for output longer than the screen, on a terminal only (default: PAGER; none when neither is set; cat or empty: none)',
      ],
      ['FACET_COMPLETE_TIMEOUT_MS', 'how long Tab waits for ids from the server, in milliseconds (default 1500)'],
    ],
  },
  {
    title: '`facet serve` (a flag named in brackets wins over its variable)',
    vars: [
      ['FACET_DATA_DIR', 'the data dir (--data-dir; default: the OS data dir, ~/.local/share/facet on Linux)'],
      ['FACET_DATABASE_URL', 'keep the records in PostgreSQL, postgres://USER:PASSWORD@HOST:PORT/DB (--database-url)'],
      ['FACET_FILES_DIR', 'where uploads and task outputs go (--files-dir; default DATA_DIR/files)'],
      [
        'FACET_OBJECT_STORE',
        'keep files in an S3 object store, s3://BUCKET[/PREFIX] (--object-store; AWS_* variables configure it)',
      ],
      [
        'FACET_OBJECT_STORE_RETRY_SECONDS',
        'how long one object-store operation is retried through an outage (default 60)',
      ],
      [
        'FACET_INSTANCE_ID',
        "this instance's name in audit entries, logs and metrics (--instance-id; default HOST:PORT)",
      ],
      ['FACET_PUBLIC_URL', 'the address clients reach the platform at, named in every link (--public-url)'],
      ['FACET_TRUST_PROXY', 'believe X-Forwarded-Proto/-Host from these proxies (--trust-proxy)'],
      ['FACET_ADMIN_KEY_SERVE', 'the deployment admin key the server accepts (--admin-key; default: generated once)'],
      [
        'FACET_ALLOW_FETCH_FROM',
        'local or private hosts, addresses or CIDR blocks pages may be fetched from, comma-separated (--allow-fetch-from)',
      ],
      [
        'FACET_CHROMIUM',
        'the Chromium for screenshots and fine-mode extraction (--chromium; default /usr/bin/chromium)',
      ],
      ['FACET_SOFFICE', "the LibreOffice binary for slide previews (default: Debian's path, then PATH)"],
      ['FACET_CATALOG', 'a model catalog JSON replacing the shipped one (--catalog)'],
      ['FACET_DEFAULT_MODEL', "the chat model the platform's own features use (--default-model)"],
      [
        'FACET_UPSTREAM_OPENAI_BASE_URL',
        'OpenAI-compatible server for catalog models with api "openai" (--upstream-openai-base-url)',
      ],
      ['FACET_UPSTREAM_OPENAI_KEY', 'its API key'],
      [
        'FACET_UPSTREAM_ANTHROPIC_BASE_URL',
        'Anthropic-compatible server for catalog models with api "anthropic" (--upstream-anthropic-base-url)',
      ],
      ['FACET_UPSTREAM_ANTHROPIC_KEY', 'its API key'],
      ['FACET_UPSTREAM_SUBTITLES_BASE_URL', 'a subtitle provider asked when the local store has nothing'],
      ['FACET_UPSTREAM_SUBTITLES_KEY', 'its API key'],
      [
        'FACET_SOCIAL_UPSTREAM_BASE_URL',
        'a social data provider social search passes through to (--social-upstream-base-url)',
      ],
      ['FACET_SOCIAL_UPSTREAM_KEY', 'its API key'],
      ['FACET_BETA_UPSTREAM_URL', 'a data provider the /v1/beta data endpoints forward to (--beta-upstream-url)'],
      ['FACET_BETA_UPSTREAM_KEY', 'its credentials: login:password (HTTP Basic) or a key (bearer)'],
      [
        'FACET_DOCUMENT_LIMITS',
        "document limits raised or lowered by name, name=value,… (see the README's limits table)",
      ],
      ['FACET_CPU_WORKERS', 'CPU worker threads (default: cores - 1, at most 4)'],
      ['FACET_CPU_QUEUE_MAX', 'CPU jobs that may wait in all (default 256)'],
      ['FACET_CPU_QUEUE_PER_OWNER', 'CPU jobs one caller may have waiting (default 64)'],
      ['FACET_CPU_JOB_TIMEOUT_MS', "a CPU job's time limit: one number for all, or name=ms pairs, comma-separated"],
      ['FACET_CPU_JOB_MEMORY_MB', "a CPU job's memory limit in MB (default 512)"],
      ['FACET_CPU_HEAVY_WORKERS', 'threads of the heavy lane, where long and large CPU jobs run (default 2)'],
      ['FACET_CPU_SLICE_MS', "a job's own CPU time before it moves to the heavy lane (default 1000)"],
      ['FACET_CPU_HEAVY_INPUT', 'an input this many bytes or larger starts on the heavy lane (default 1048576)'],
    ],
  },
  {
    title: 'For testing',
    vars: [
      ['FACET_VALIDATE_RESPONSES', '1: the server checks every answer against the API contract'],
      ['FACET_RESPONSE_JOURNAL', 'a file the server appends every response it sends to'],
      ['FACET_TEST_RENDER_CHILD_ABORT', 'a marker that makes a render child abort as a native crash does'],
    ],
  },
];

export function environmentHelp(): string {
  const width = Math.max(...ENVIRONMENT.flatMap((s) => s.vars.map(([name]) => name.length)));
  const sections = ENVIRONMENT.map(
    (s) => `${s.title}:\n${s.vars.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`).join('\n')}`,
  );
  return `Environment variables\n\n${sections.join('\n\n')}\n\nAlso read: NO_COLOR and FORCE_COLOR=0 (no colours), CI=true or 1 (never prompt),\nAWS_ENDPOINT_URL(_S3), AWS_REGION (or AWS_DEFAULT_REGION), AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN (the object store).\n`;
}
