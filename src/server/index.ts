/**
 * The server's programmatic entry, built to dist/server.js for benchmarks and embedding: the
 * platform behind its small handle, and the engines that can be called directly.
 */
export { startServer, type RunningServer } from './server.js';
export type { StartOptions } from './start-options.js';
export { startLoopWatch } from './loop-watch.js';
export { generateIllustrations } from './engines/illustration/index.js';
export { JobQueue, JobFailure } from './jobs/queue.js';
