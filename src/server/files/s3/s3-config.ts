/** How long one storage operation is retried through an outage by default (s3-retry.ts). */
export const S3_RETRY_WINDOW_MS = 60_000;

/** Where an object store is and how to sign for it (`--object-store s3://BUCKET[/PREFIX]` and friends). */
export interface S3Config {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing "/" ('' for the whole bucket). */
  prefix: string;
  /** Base URL of the S3 API, e.g. http://127.0.0.1:9000 or https://s3.eu-west-1.amazonaws.com. */
  endpoint: string;
  /** An endpoint was given (another provider or a local server), not AWS's own. */
  endpointConfigured: boolean;
  region: string;
  /** Absent: the SDK's standard credential chain finds them. */
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Bucket in the path (/bucket/key) rather than in the host name; needed by most local servers. */
  pathStyle: boolean;
  /** Per request: headers within this, and no pause of the body longer than this. */
  timeoutMs: number;
  /** How long one operation is tried again through an outage (backoff with jitter) before it fails. */
  retryWindowMs: number;
}

export interface S3Options {
  objectStore: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  timeoutMs?: number;
  retryWindowMs?: number;
}

/**
 * Reads `s3://BUCKET[/PREFIX]` with the endpoint, region and credentials given (options first, then
 * the usual AWS environment variables). Without an endpoint it is AWS's own, addressed by host name;
 * a configured endpoint (MinIO, s3rver, another provider) is addressed by path, which they all accept.
 */
export function parseS3Config(options: S3Options, env: NodeJS.ProcessEnv = process.env): S3Config {
  const m = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(options.objectStore.trim());
  if (!m)
    throw new Error(
      `--object-store must look like s3://BUCKET or s3://BUCKET/PREFIX, not ${JSON.stringify(options.objectStore)}`,
    );
  const bucket = m[1];
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error(
      `--object-store: ${JSON.stringify(bucket)} is not a valid bucket name (3-63 lowercase letters, digits, dots and hyphens)`,
    );
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  const region = options.region || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
  const configured = options.endpoint || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL;
  const endpoint = (configured || `https://s3.${region}.amazonaws.com`).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`--s3-endpoint ${JSON.stringify(endpoint)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`--s3-endpoint must be an http or https URL, not ${endpoint}`);
  const accessKeyId = options.accessKeyId || env.AWS_ACCESS_KEY_ID || undefined;
  const secretAccessKey = options.secretAccessKey || env.AWS_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error(
      '--object-store: give both the access key id and the secret access key, or neither (then the standard AWS credential chain is used)',
    );
  }
  return {
    bucket,
    prefix,
    endpoint,
    endpointConfigured: Boolean(configured),
    region,
    accessKeyId,
    secretAccessKey,
    sessionToken: options.sessionToken || env.AWS_SESSION_TOKEN || undefined,
    // Dotted bucket names do not fit a TLS wildcard certificate: they go in the path even at AWS.
    pathStyle: Boolean(configured) || bucket.includes('.'),
    timeoutMs: options.timeoutMs ?? 60_000,
    retryWindowMs: options.retryWindowMs ?? retryWindowFromEnv(env) ?? S3_RETRY_WINDOW_MS,
  };
}

/** s3://bucket/prefix at the endpoint, for messages (no credentials). */
export function describeS3(c: S3Config): string {
  return `s3://${c.bucket}${c.prefix ? `/${c.prefix}` : ''} at ${c.endpoint}`;
}

/** FACET_OBJECT_STORE_RETRY_SECONDS: a shorter (tests) or longer (a slow failover) retry window. */
function retryWindowFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.FACET_OBJECT_STORE_RETRY_SECONDS;
  if (!raw) return undefined;
  const s = Number(raw);
  if (!Number.isFinite(s) || s < 0 || s > 3600)
    throw new Error(`FACET_OBJECT_STORE_RETRY_SECONDS must be a number of seconds from 0 to 3600, not ${raw}`);
  return s * 1000;
}
