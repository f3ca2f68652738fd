/**
 * LevelDB persistence of the action engine: one entry per live or kept action under the sublevel
 * `actions`, and the engine's control state (emergency stop, rate windows, cooldowns) under
 * `actions-control`. Every commit is one atomic batch.
 */
import type { ClassicLevel } from 'classic-level';
import type { Action } from '../actions/action.js';
import type { ActionControlState, ActionRepository } from '../actions/action-repository.js';

const CONTROL_KEY = 'state';

export class LevelActionStore implements ActionRepository {
  private readonly actions;
  private readonly control;

  constructor(private readonly db: ClassicLevel<string, string>) {
    this.actions = db.sublevel<string, Action>('actions', { valueEncoding: 'json' });
    this.control = db.sublevel<string, ActionControlState>('actions-control', { valueEncoding: 'json' });
  }

  async load(): Promise<{ actions: Action[]; control: ActionControlState | undefined }> {
    const actions = await this.actions.values().all();
    const control = await this.control.get(CONTROL_KEY);
    return { actions, control };
  }

  async commit(change: { put: Action[]; deleted: Action[]; control: ActionControlState }): Promise<void> {
    const batch = this.db.batch();
    for (const action of change.put) batch.put(action.id, action, { sublevel: this.actions });
    for (const action of change.deleted) batch.del(action.id, { sublevel: this.actions });
    batch.put(CONTROL_KEY, change.control, { sublevel: this.control });
    await batch.write();
  }
}
