import type { TaskGroup } from '../doc-tasks/wait.js';

export const PAGES_GROUP: TaskGroup = { command: 'pages', noun: 'landing page' };
