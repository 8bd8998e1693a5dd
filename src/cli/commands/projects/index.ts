import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as list from './list.js';
import * as create from './create.js';
import * as update from './update.js';
import * as del from './delete.js';
import * as upload from './upload.js';
import * as files from './files.js';
import * as deleteFile from './delete-file.js';
import * as sites from './sites.js';
import * as addSite from './add-site.js';
import * as removeSite from './remove-site.js';

export function register(program: Command, deps: Deps): void {
  const projects = program
    .command('projects')
    .description('Projects, their files and their sites (URLs used as knowledge)');
  for (const verb of [list, create, update, del, upload, files, deleteFile, sites, addSite, removeSite])
    verb.register(projects, deps);
}
