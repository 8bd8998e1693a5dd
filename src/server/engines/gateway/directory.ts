import type { Kysely } from 'kysely';
import type { Database } from '../../store/database.js';
import { listModelListing, setModelListing } from '../../store/model-listing.repo.js';
import type { Catalog, CatalogModel } from './catalog.js';

export interface ModelState extends CatalogModel {
  /** The catalog's flag, or an administrator's decision when one was made. */
  listed: boolean;
  /** What callers see: enabled, listed, not deleted, and priced (zero counts). */
  offered: boolean;
}

/** How long an instance trusts its copy of the admin decisions before reading the store again. */
const REFRESH_MS = 5_000;

/**
 * The catalog joined with the administrators' list/hide decisions. The decisions are cached in
 * memory, because every model call reads them, and refreshed every few seconds so several instances
 * sharing one database agree soon after a change.
 */
export class ModelDirectory {
  private overrides = new Map<string, boolean>();
  /**
   * Each model's state, made once per set of decisions: every model call asks for its model's, and
   * copying a catalog entry each time was most of what `GET /api/v1/models` cost. Dropped whenever
   * the decisions are read again or one changes. Frozen, since callers share them.
   */
  private states = new Map<string, ModelState>();
  private everyState: readonly ModelState[] | undefined;
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(
    readonly catalog: Catalog,
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  private async fresh(): Promise<void> {
    if (this.clock() - this.loadedAt < REFRESH_MS) return;
    this.loading ??= listModelListing(this.db)
      .then((m) => {
        this.overrides = m;
        this.forgetStates();
        this.loadedAt = this.clock();
      })
      .finally(() => (this.loading = undefined));
    await this.loading;
  }

  private state(m: CatalogModel): ModelState {
    let state = this.states.get(m.id);
    if (!state) {
      const listed = this.overrides.get(m.id) ?? m.listed;
      state = Object.freeze({ ...m, listed, offered: m.enabled && listed && !m.deleted && m.pricing !== null });
      this.states.set(m.id, state);
    }
    return state;
  }

  private forgetStates(): void {
    this.states.clear();
    this.everyState = undefined;
  }

  async all(): Promise<readonly ModelState[]> {
    await this.fresh();
    return (this.everyState ??= Object.freeze(this.catalog.models.map((m) => this.state(m))));
  }

  async get(id: string): Promise<ModelState | undefined> {
    await this.fresh();
    const m = this.catalog.get(id);
    return m && this.state(m);
  }

  /** Lists or hides a catalog model for everyone; returns undefined for an id the catalog lacks. */
  async setListed(id: string, listed: boolean, at: string, by: string | null): Promise<ModelState | undefined> {
    const m = this.catalog.get(id);
    if (!m) return undefined;
    await setModelListing(this.db, id, listed, at, by);
    this.overrides.set(id, listed);
    this.forgetStates();
    return this.state(m);
  }
}
