import type { ToolDef } from '../tool.js';
import { webExtract, webScrapeBatch } from './web.js';
import {
  livedocsAddText,
  livedocsAddUrl,
  livedocsAsk,
  livedocsCreate,
  livedocsList,
  livedocsSearch,
} from './livedocs.js';
import { socialSearch, socialUser } from './social.js';
import { financialStatements, reviewsSearch, seoBacklinks } from './data.js';
import { landingPageCreate, mindmapCreate, slidesCreate } from './documents.js';
import { imageTaskCreate } from './images.js';
import { modelsList, usageSummary } from './account.js';

/** The one table of tools, served alike on stdio (`facet mcp`) and at /mcp (`facet serve`). */
export const TOOLS: readonly ToolDef[] = [
  webExtract,
  webScrapeBatch,
  livedocsList,
  livedocsCreate,
  livedocsAddUrl,
  livedocsAddText,
  livedocsSearch,
  livedocsAsk,
  socialSearch,
  socialUser,
  seoBacklinks,
  financialStatements,
  reviewsSearch,
  slidesCreate,
  landingPageCreate,
  mindmapCreate,
  imageTaskCreate,
  modelsList,
  usageSummary,
];
