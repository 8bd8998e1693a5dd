import { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from './s3-config.js';

/**
 * The AWS SDK's client for one S3-compatible store. Credentials given (flags or AWS_ACCESS_KEY_ID)
 * are used as they are; otherwise the SDK's standard chain finds them (shared config and profile,
 * web identity, container and instance metadata). This is the server's own infrastructure, not a
 * fetch on a user's behalf: the outbound fetch policy does not apply, but every request has a
 * timeout. The SDK makes one attempt: retries are s3-retry.ts's, over a window of time rather than a
 * count of attempts, since the SDK's own retry quota runs dry when many requests meet one outage.
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
    maxAttempts: 1,
    // Checksums only where S3 requires them: S3-compatible servers differ in which they accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
