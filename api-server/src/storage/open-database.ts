/**
 * Opens the service's LevelDB. Its one tuning is the open-file bound: LevelDB reads each table
 * through an mmap of the whole file, kept while the table is in its table cache (max_open_files
 * less 10 entries), so the pages its reads and compactions touched stay in the process's RSS as
 * long as the table stays cached. A bound well below the table count bounds that memory
 * (docs/memory.md, "LevelDB's tables").
 */
import { ClassicLevel } from 'classic-level';

export interface DatabaseTuning {
  /** LevelDB's max_open_files (settings.leveldbMaxOpenFiles) */
  maxOpenFiles: number;
}

export async function openDatabase(dir: string, tuning: DatabaseTuning): Promise<ClassicLevel<string, string>> {
  const db = new ClassicLevel<string, string>(dir, { maxOpenFiles: tuning.maxOpenFiles });
  await db.open();
  return db;
}
