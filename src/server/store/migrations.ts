import type { Migration } from 'kysely';
import { identityKeysUsageMigration } from './migrations/0001-identity-keys-usage.js';
import { projectsTasksJobsMigration } from './migrations/0002-projects-tasks-jobs.js';
import { livedocsChatConversationsMigration } from './migrations/0004-livedocs-chat-conversations.js';
import { modelListingMigration } from './migrations/0005-model-listing.js';
import { keyPagesMigration } from './migrations/0006-key-pages.js';
import { listTotalsMigration } from './migrations/0007-list-totals.js';
import { usageRollupsMigration } from './migrations/0008-usage-rollups.js';
import { socialMigration } from './migrations/0010-social.js';
import { betaDataMigration } from './migrations/0011-beta-data.js';
import { webScrapeSubtitles } from './migrations/0012-web-scrape-subtitles.js';
import { docTasksMigration } from './migrations/0013-doc-tasks.js';
import { slidesMigration } from './migrations/0014-slides.js';
import { landingPagesMigration } from './migrations/0015-landing-pages.js';
import { socialSpeedMigration } from './migrations/0017-social-speed.js';
import { cacheBusMigration } from './migrations/0019-cache-bus.js';
import { betaSpeedMigration } from './migrations/0020-beta-speed.js';
import { livedocsOneOwnerIndexMigration } from './migrations/0021-livedocs-one-owner-index.js';
import { usageUnusedIndexesMigration } from './migrations/0022-usage-unused-indexes.js';
import { sessionsJobCrashesMigration } from './migrations/0023-sessions-job-crashes.js';
import { auditLogMigration } from './migrations/0024-audit-log.js';
import { storedResponsesMigration } from './migrations/0025-stored-responses.js';
import { betaBacklinksMigration } from './migrations/0027-beta-backlinks.js';
import { betaBacklinksCoveringMigration } from './migrations/0028-beta-backlinks-covering.js';
import { chunkWordsMigration } from './migrations/0029-chunk-words.js';
import { storedResponseChainsMigration } from './migrations/0030-stored-response-chains.js';
import { sessionKeysMigration } from './migrations/0031-session-keys.js';
import { auditInstanceMigration } from './migrations/0032-audit-instance.js';
import { sessionAdminKeyMigration } from './migrations/0033-session-admin-key.js';
import { socialWordsMigration } from './migrations/0034-social-words.js';
import { deckPreviewsStateMigration } from './migrations/0035-deck-previews-state.js';
import { chunkHeadingsMigration } from './migrations/0036-chunk-headings.js';

/**
 * Versioned migrations, one file each under ./migrations/, frozen in time: each takes Kysely<unknown>, or
 * the few tables it reads typed as they were then, and never imports the app's current types. Listed here because a bundle cannot scan a folder:
 * one import and one entry per migration; names sort in application order.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_identity_keys_usage': identityKeysUsageMigration,
  '0002_projects_tasks_jobs': projectsTasksJobsMigration,
  '0004_livedocs_chat_conversations': livedocsChatConversationsMigration,
  '0005_model_listing': modelListingMigration,
  '0006_key_pages': keyPagesMigration,
  '0007_list_totals': listTotalsMigration,
  '0008_usage_rollups': usageRollupsMigration,
  '0010_social': socialMigration,
  '0011_beta_data': betaDataMigration,
  '0012_web_scrape_subtitles': webScrapeSubtitles,
  '0013_doc_tasks': docTasksMigration,
  '0014_slides': slidesMigration,
  '0015_landing_pages': landingPagesMigration,
  '0017_social_speed': socialSpeedMigration,
  '0019_cache_bus': cacheBusMigration,
  '0020_beta_speed': betaSpeedMigration,
  '0021_livedocs_one_owner_index': livedocsOneOwnerIndexMigration,
  '0022_usage_unused_indexes': usageUnusedIndexesMigration,
  '0023_sessions_job_crashes': sessionsJobCrashesMigration,
  '0024_audit_log': auditLogMigration,
  '0025_stored_responses': storedResponsesMigration,
  '0027_beta_backlinks': betaBacklinksMigration,
  '0028_beta_backlinks_covering': betaBacklinksCoveringMigration,
  '0029_chunk_words': chunkWordsMigration,
  '0030_stored_response_chains': storedResponseChainsMigration,
  '0031_session_keys': sessionKeysMigration,
  '0032_audit_instance': auditInstanceMigration,
  '0033_session_admin_key': sessionAdminKeyMigration,
  '0034_social_words': socialWordsMigration,
  '0035_deck_previews_state': deckPreviewsStateMigration,
  '0036_chunk_headings': chunkHeadingsMigration,
};
