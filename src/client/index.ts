import { createTransport, type TransportOptions, type Transport } from './transport.js';
import type { keysClient } from './keys.js';
import type { adminClient } from './admin.js';
import type { modelsClient } from './models.js';
import type { adminModelsClient, modelApiClient } from './model-api.js';
import type { livedocsClient } from './livedocs.js';
import type { chatClient } from './chat.js';
import type { conversationsClient } from './conversations.js';
import type { projectsClient } from './projects.js';
import type { tasksClient } from './tasks.js';
import type { systemClient } from './system.js';
import type { socialClient } from './social.js';
import type { betaClient } from './beta.js';
import type { webClient } from './web.js';
import type { subtitlesClient } from './subtitles.js';
import type { scrapeClient } from './scrape.js';
import type { docTasksClient } from './doc-tasks.js';
import type { mindmapClient } from './mindmap.js';
import type { slidesClient } from './slides.js';
import type { landingPagesClient } from './landing-pages.js';
import type { auditClient } from './audit.js';
import type { usageClient } from './usage.js';

export { ApiError, NetworkError, MissingCredentialError } from './errors.js';
export type { Transport } from './transport.js';
export { createTransport } from './transport.js';

/** Each surface's client, loaded when a command asks for it: its contract (zod schemas) comes with it. */
const LOADERS = {
  keys: () => import('./keys.js').then((m) => m.keysClient),
  admin: () => import('./admin.js').then((m) => m.adminClient),
  models: () => import('./models.js').then((m) => m.modelsClient),
  modelApi: () => import('./model-api.js').then((m) => m.modelApiClient),
  adminModels: () => import('./model-api.js').then((m) => m.adminModelsClient),
  livedocs: () => import('./livedocs.js').then((m) => m.livedocsClient),
  chat: () => import('./chat.js').then((m) => m.chatClient),
  conversations: () => import('./conversations.js').then((m) => m.conversationsClient),
  projects: () => import('./projects.js').then((m) => m.projectsClient),
  tasks: () => import('./tasks.js').then((m) => m.tasksClient),
  system: () => import('./system.js').then((m) => m.systemClient),
  social: () => import('./social.js').then((m) => m.socialClient),
  beta: () => import('./beta.js').then((m) => m.betaClient),
  web: () => import('./web.js').then((m) => m.webClient),
  subtitles: () => import('./subtitles.js').then((m) => m.subtitlesClient),
  scrape: () => import('./scrape.js').then((m) => m.scrapeClient),
  docTasks: () => import('./doc-tasks.js').then((m) => m.docTasksClient),
  mindmap: () => import('./mindmap.js').then((m) => m.mindmapClient),
  slides: () => import('./slides.js').then((m) => m.slidesClient),
  landingPages: () => import('./landing-pages.js').then((m) => m.landingPagesClient),
  audit: () => import('./audit.js').then((m) => m.auditClient),
  usage: () => import('./usage.js').then((m) => m.usageClient),
};

interface Clients {
  keys: ReturnType<typeof keysClient>;
  admin: ReturnType<typeof adminClient>;
  models: ReturnType<typeof modelsClient>;
  modelApi: ReturnType<typeof modelApiClient>;
  adminModels: ReturnType<typeof adminModelsClient>;
  livedocs: ReturnType<typeof livedocsClient>;
  chat: ReturnType<typeof chatClient>;
  conversations: ReturnType<typeof conversationsClient>;
  projects: ReturnType<typeof projectsClient>;
  tasks: ReturnType<typeof tasksClient>;
  system: ReturnType<typeof systemClient>;
  social: ReturnType<typeof socialClient>;
  beta: ReturnType<typeof betaClient>;
  web: ReturnType<typeof webClient>;
  subtitles: ReturnType<typeof subtitlesClient>;
  scrape: ReturnType<typeof scrapeClient>;
  docTasks: ReturnType<typeof docTasksClient>;
  mindmap: ReturnType<typeof mindmapClient>;
  slides: ReturnType<typeof slidesClient>;
  landingPages: ReturnType<typeof landingPagesClient>;
  audit: ReturnType<typeof auditClient>;
  usage: ReturnType<typeof usageClient>;
}

export type ClientName = keyof Clients;
/** The clients a command asked for, over one transport. */
export type ApiOf<K extends ClientName> = { transport: Transport } & Pick<Clients, K>;
/** Every surface's client (tests, and what a command gets when it asks for all). */
export type Api = ApiOf<ClientName>;
export const CLIENT_NAMES = Object.keys(LOADERS) as ClientName[];

/**
 * The clients of the given surfaces over one transport. Loading only those keeps a command's
 * start-up to its own contracts: all of them together were most of `facet keys list`'s time and
 * memory (bench/cli-startup).
 */
export async function createApi<K extends ClientName>(
  options: TransportOptions | Transport,
  groups: readonly K[],
): Promise<ApiOf<K>> {
  const transport: Transport = 'send' in options ? options : createTransport(options);
  const api = { transport } as ApiOf<K>;
  await Promise.all(
    groups.map(async (g) => {
      const factory = (await LOADERS[g]()) as (t: Transport) => Clients[K];
      (api as unknown as Record<string, unknown>)[g] = factory(transport);
    }),
  );
  return api;
}
