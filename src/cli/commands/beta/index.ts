import type { Command } from 'commander';
import type { Deps } from '../../deps.js';
import * as backlinks from './backlinks.js';
import * as whois from './whois.js';
import * as volume from './volume.js';
import * as traffic from './traffic.js';
import * as income from './income.js';
import * as insiders from './insiders.js';
import * as reviews from './reviews.js';
import * as locations from './locations.js';
import * as scrape from './scrape/index.js';
import { registerBetaSocial } from './social/index.js';

/**
 * `facet beta`: the /v1/beta data endpoints. Each subcommand (or sub-group) is a module with
 * register(parent, deps); adding one is one line in this list.
 */
const SUBCOMMANDS: Array<{ register(parent: Command, deps: Deps): void }> = [
  backlinks,
  whois,
  volume,
  reviews,
  locations,
  traffic,
  income,
  insiders,
  scrape,
];

export function register(program: Command, deps: Deps): void {
  const beta = program
    .command('beta')
    .description(
      'Beta data endpoints: SEO backlinks, whois, search volume, reviews, traffic, financials, social posts, batch scraping',
    );
  for (const sub of SUBCOMMANDS) sub.register(beta, deps);
  registerBetaSocial(beta, deps);
}
