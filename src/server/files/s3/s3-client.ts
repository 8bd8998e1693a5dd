import { S3Client } from '@aws-sdk/client-s3';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import type { S3Config } from './s3-config.js';

/**
 * Retries back off from half a second to 8 s: with the default attempts (s3-config.ts), a store that
 * is away for a minute (a restart, a failover) is waited for instead of failing the task that wrote.
 */
const backoff = (attempt: number) => Math.min(8_000, 500 * 2 ** attempt);

/**
 * The AWS SDK's client for one S3-compatible store. Credentials given (flags or AWS_ACCESS_KEY_ID)
 * are used as they are; otherwise the SDK's standard chain finds them (shared config and profile,
 * web identity, container and instance metadata). This is the server's own infrastructure, not a
 * fetch on a user's behalf: the outbound fetch policy does not apply, but every request has a
 * timeout and retries with backoff on 5xx, SlowDown and dropped connections.
 */
export function createS3Client(config: S3Config): S3Client {
  // The SDK warns at every start on Node 20 that its releases after January 2027 will need Node 22;
  // the lockfile pins one that runs here, so an operator would only learn to ignore the line.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: config.region,
    ...(config.endpointConfigured ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.pathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? {
          credentials: {
            accessKeyId: config.accessKeyId,
            secretAccessKey: config.secretAccessKey,
            sessionToken: config.sessionToken,
          },
        }
      : {}),
    requestHandler: { connectionTimeout: Math.min(10_000, config.timeoutMs), requestTimeout: config.timeoutMs },
    retryStrategy: new ConfiguredRetryStrategy(config.maxAttempts, backoff),
    // Checksums only where S3 requires them: S3-compatible servers differ in which they accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
