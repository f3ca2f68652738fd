/**
 * A LevelDB sublevel of JSON records keyed by id: the persistence of the control plane
 * (suppressions, context events, weight overrides). Writes resolve once LevelDB has them.
 */
import type { ClassicLevel } from 'classic-level';

export class LevelJsonCollection<T> {
  private readonly sublevel;

  constructor(
    private readonly db: ClassicLevel<string, string>,
    name: string,
  ) {
    this.sublevel = db.sublevel<string, T>(name, { valueEncoding: 'json' });
  }

  all(): Promise<T[]> {
    return this.sublevel.values().all();
  }

  get(id: string): Promise<T | undefined> {
    return this.sublevel.get(id);
  }

  put(id: string, value: T): Promise<void> {
    return this.sublevel.put(id, value);
  }

  del(id: string): Promise<void> {
    return this.sublevel.del(id);
  }

  /** Replaces the whole collection atomically with `entries` (id, value). */
  async replaceAll(entries: [string, T][]): Promise<void> {
    const existing = await this.sublevel.keys().all();
    const batch = this.db.batch();
    for (const key of existing) batch.del(key, { sublevel: this.sublevel });
    for (const [id, value] of entries) batch.put(id, value, { sublevel: this.sublevel });
    await batch.write();
  }
}
