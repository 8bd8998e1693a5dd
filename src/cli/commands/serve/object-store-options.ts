import type { Command } from 'commander';

export interface ObjectStoreFlags {
  objectStore?: string;
  s3Endpoint?: string;
  s3Region?: string;
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
}

/** The object-store options of `facet serve` and `facet serve migrate`. */
export function addObjectStoreOptions(
  cmd: Command,
  what = 'keep every file (uploads, task outputs, decks, pages, mindmaps) in an S3-compatible object store, downloads redirected to presigned URLs',
): Command {
  return cmd
    .option('--object-store <url>', `${what}: s3://BUCKET[/PREFIX] (env FACET_OBJECT_STORE)`)
    .option(
      '--s3-endpoint <url>',
      "the object store's S3 API, e.g. http://127.0.0.1:9000 for a local server, addressed by path (env AWS_ENDPOINT_URL; default AWS)",
    )
    .option('--s3-region <region>', 'its region (env AWS_REGION; default us-east-1)')
    .option('--s3-access-key-id <id>', 'its access key id (env AWS_ACCESS_KEY_ID)')
    .option(
      '--s3-secret-access-key <secret>',
      'its secret key (better: env AWS_SECRET_ACCESS_KEY, out of the process list)',
    );
}

/** What the server's openFileStore needs; none without --object-store or FACET_OBJECT_STORE. */
export function objectStoreOptions(opts: ObjectStoreFlags, env: NodeJS.ProcessEnv) {
  const objectStore = opts.objectStore ?? (env.FACET_OBJECT_STORE || undefined);
  if (!objectStore) return undefined;
  return {
    objectStore,
    endpoint: opts.s3Endpoint,
    region: opts.s3Region,
    accessKeyId: opts.s3AccessKeyId,
    secretAccessKey: opts.s3SecretAccessKey,
  };
}
