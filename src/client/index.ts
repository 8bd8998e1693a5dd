import { createTransport, type TransportOptions, type Transport } from './transport.js';
import { keysClient } from './keys.js';
import { adminClient } from './admin.js';
import { modelsClient } from './models.js';
import { adminModelsClient, modelApiClient } from './model-api.js';
import { livedocsClient } from './livedocs.js';
import { chatClient } from './chat.js';
import { conversationsClient } from './conversations.js';
import { projectsClient } from './projects.js';
import { tasksClient } from './tasks.js';
import { systemClient } from './system.js';
import { socialClient } from './social.js';
import { betaClient } from './beta.js';
import { webClient } from './web.js';
import { subtitlesClient } from './subtitles.js';
import { scrapeClient } from './scrape.js';
import { docTasksClient } from './doc-tasks.js';
import { mindmapClient } from './mindmap.js';
import { slidesClient } from './slides.js';
import { landingPagesClient } from './landing-pages.js';

export { ApiError, NetworkError, MissingCredentialError } from './errors.js';
export type { Transport } from './transport.js';

/** Every surface's client over one transport. */
export function createApi(options: TransportOptions) {
  const transport: Transport = createTransport(options);
  return {
    transport,
    keys: keysClient(transport),
    admin: adminClient(transport),
    models: modelsClient(transport),
    modelApi: modelApiClient(transport),
    adminModels: adminModelsClient(transport),
    livedocs: livedocsClient(transport),
    chat: chatClient(transport),
    conversations: conversationsClient(transport),
    projects: projectsClient(transport),
    tasks: tasksClient(transport),
    system: systemClient(transport),
    social: socialClient(transport),
    beta: betaClient(transport),
    web: webClient(transport),
    subtitles: subtitlesClient(transport),
    scrape: scrapeClient(transport),
    docTasks: docTasksClient(transport),
    mindmap: mindmapClient(transport),
    slides: slidesClient(transport),
    landingPages: landingPagesClient(transport),
  };
}

export type Api = ReturnType<typeof createApi>;
