import type { Command } from 'commander';
import type { Deps } from './deps.js';

export interface GroupModule {
  register(program: Command, deps: Deps): void;
}

/**
 * Top-level commands, each loaded only when it runs (or when the whole tree is needed, for help
 * listings and completion scripts). Adding a group is one line here.
 */
export const GROUPS: Array<{ name: string; summary: string; hidden?: boolean; load: () => Promise<GroupModule> }> = [
  { name: 'login', summary: 'Save credentials for a profile', load: () => import('./commands/login.js') },
  { name: 'logout', summary: "Remove a profile's credentials", load: () => import('./commands/logout.js') },
  { name: 'whoami', summary: 'Show who the current credentials belong to', load: () => import('./commands/whoami.js') },
  {
    name: 'auth',
    summary: "Print the profile's raw credential for scripts (auth token)",
    load: () => import('./commands/auth/index.js'),
  },
  {
    name: 'status',
    summary: 'Check the profile, credentials, server, Chromium and fonts',
    load: () => import('./commands/status.js'),
  },
  {
    name: 'config',
    summary: 'Read and change profiles and settings',
    load: () => import('./commands/config/index.js'),
  },
  { name: 'keys', summary: 'Manage your API keys', load: () => import('./commands/keys/index.js') },
  {
    name: 'admin',
    summary: 'Administer keys of every user, read usage and the audit trail',
    load: () => import('./commands/admin/index.js'),
  },
  {
    name: 'audit',
    summary: 'Your own audit entries: changes by you and to your keys',
    load: () => import('./commands/audit.js'),
  },
  {
    name: 'logs',
    summary: 'Follow requests as they arrive (logs tail)',
    load: () => import('./commands/logs/index.js'),
  },
  { name: 'projects', summary: 'Projects, their files and sites', load: () => import('./commands/projects/index.js') },
  {
    name: 'tasks',
    summary: 'Image tasks: create, follow, cancel, retry, fetch artifacts',
    load: () => import('./commands/tasks/index.js'),
  },
  { name: 'models', summary: 'List the models the platform offers', load: () => import('./commands/models/index.js') },
  {
    name: 'llm',
    summary: 'Call a model through /api/v1 (chat, responses or messages)',
    load: () => import('./commands/llm/index.js'),
  },
  {
    name: 'livedocs',
    summary: 'LiveDocs and their resources: add pages and files, retrieve',
    load: () => import('./commands/livedocs/index.js'),
  },
  {
    name: 'chat',
    summary: 'Ask for a search-grounded answer with sources',
    load: () => import('./commands/chat/index.js'),
  },
  {
    name: 'conversations',
    summary: 'Conversations over LiveDocs, answered as a stream',
    load: () => import('./commands/conversations/index.js'),
  },
  {
    name: 'ask',
    summary: 'Ask a question and stream the answer (start + stream)',
    load: () => import('./commands/ask.js'),
  },
  {
    name: 'slides',
    summary: 'Slide decks (.pptx) from a LiveDoc: themes, create, wait, download',
    load: () => import('./commands/slides/index.js'),
  },
  {
    name: 'pages',
    summary: 'Landing pages written from a LiveDoc: create, wait, open',
    load: () => import('./commands/pages/index.js'),
  },
  {
    name: 'social',
    summary: 'Social search: users, timelines, posts and replies',
    load: () => import('./commands/social/index.js'),
  },
  {
    name: 'extract',
    summary: 'Extract one web page as Markdown, text or HTML (/v2/web/extract)',
    load: () => import('./commands/extract.js'),
  },
  {
    name: 'subtitles',
    summary: "Print a video's existing subtitles (text, SRT, WebVTT, JSON)",
    load: () => import('./commands/subtitles.js'),
  },
  {
    name: 'mindmap',
    summary: 'Draw a mindmap of a LiveDoc (six layouts, SVG or PNG)',
    load: () => import('./commands/mindmap.js'),
  },
  {
    name: 'beta',
    summary:
      'Beta data: SEO backlinks, whois, search volume, reviews, traffic, financials, social posts, batch scraping',
    load: () => import('./commands/beta/index.js'),
  },
  {
    name: 'api',
    summary: "Make a raw API call with the profile's credentials",
    load: () => import('./commands/api.js'),
  },
  {
    name: 'mcp',
    summary: 'Serve facet to AI agents over MCP on stdio (Claude Desktop, Cursor, VS Code)',
    load: () => import('./commands/mcp.js'),
  },
  {
    name: 'serve',
    summary: 'Run the local platform, and manage its users offline',
    load: () => import('./commands/serve/index.js'),
  },
  {
    name: 'completion',
    summary: 'Print a shell completion script (bash, zsh, fish, PowerShell)',
    load: () => import('./commands/completion.js'),
  },
  {
    name: '__complete',
    summary: 'Ids for shell completion',
    hidden: true,
    load: () => import('./commands/complete.js'),
  },
];
