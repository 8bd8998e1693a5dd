import type { Command } from 'commander';
import type { Deps } from '../../../deps.js';
import * as list from './list.js';
import * as get from './get.js';
import * as update from './update.js';
import * as content from './content.js';
import * as addUrl from './add-url.js';
import * as addDoc from './add-doc.js';
import * as setContent from './set-content.js';
import * as upload from './upload.js';
import * as uploadDoc from './upload-doc.js';
import * as del from './delete.js';
import * as download from './download.js';
import * as retrieve from './retrieve.js';
import * as route from './route.js';
import * as pptRetrieve from './ppt-retrieve.js';
import { argumentShape } from '../../../json-candidate.js';

export function register(livedocs: Command, deps: Deps): void {
  const resources = livedocs
    .command('resources')
    .description('Resources of a LiveDoc: pages, documents and files; retrieval over them');
  for (const verb of [
    list,
    get,
    update,
    content,
    addUrl,
    addDoc,
    setContent,
    upload,
    uploadDoc,
    del,
    download,
    retrieve,
    route,
    pptRetrieve,
  ])
    verb.register(resources, deps);
  // Each verb takes [LIVEDOC] and then its own words (none for list and add-doc, many URLs for add-url).
  for (const cmd of resources.commands) {
    if (cmd.name() === 'add-url') continue;
    const need = ['list', 'add-doc'].includes(cmd.name()) ? 0 : 1;
    argumentShape(cmd, { max: need + 1, min: need, env: 'FACET_LIVEDOC' });
  }
}
