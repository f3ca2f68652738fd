/**
 * Pending and executed actions with approve, reject and rollback; emergency stop behind a
 * confirmation dialog. In the community edition approve and rollback are disabled and the page
 * says why (they need the autopilot edition, api.md §6.5).
 */
import { useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/client.js';
import type { Action } from '../api/types.js';
import { ErrorNotice } from '../components/notice.js';
import { formatFusedR, formatPercent, formatRelative } from '../model/format.js';
import { hrefOf, refOfKey } from '../model/routes.js';
import { useLoader } from './use-loader.js';

const EDITION_NOTE = 'Approving and rolling back actions needs the autopilot edition: restart the service with SVC_EDITION=autopilot. Reject works in every edition.';

function ActionRow(props: { action: Action; autopilot: boolean; busy: boolean; onDo(verb: 'approve' | 'reject' | 'rollback', a: Action): void }) {
  const { action: a, autopilot } = props;
  const state = a.state ?? a.status;
  const ref = refOfKey(a.workload);
  const now = Date.now();
  return (
    <tr data-action-id={a.id} data-state={state}>
      <td>
        <span class={`state state-${state}`}>{state.replace('_', ' ')}</span>
      </td>
      <td>
        {ref === undefined ? a.workload : <a href={hrefOf({ view: 'workload', ref })}>{a.workload}</a>}
        <div class="muted">{a.description}</div>
      </td>
      <td>
        {a.type} · tier {a.tier}
      </td>
      <td>
        {a.fused_rupture_index === undefined ? '–' : formatFusedR(a.fused_rupture_index)} / {formatPercent(a.confidence)}
      </td>
      <td>{formatRelative(a.created_at, now)}</td>
      <td class="buttons">
        {(state === 'pending' || state === 'approved') && (
          <>
            {state === 'pending' && (
              <button type="button" disabled={!autopilot || props.busy} aria-describedby={autopilot ? undefined : 'edition-note'} onClick={() => props.onDo('approve', a)}>
                Approve
              </button>
            )}
            <button type="button" class="secondary" disabled={props.busy} onClick={() => props.onDo('reject', a)}>
              Reject
            </button>
          </>
        )}
        {state === 'executed' && (
          <button type="button" class="secondary" disabled={!autopilot || props.busy} aria-describedby={autopilot ? undefined : 'edition-note'} onClick={() => props.onDo('rollback', a)}>
            Roll back
          </button>
        )}
      </td>
    </tr>
  );
}

function ActionTable(props: { title: string; id: string; actions: Action[]; autopilot: boolean; busy: string | undefined; onDo(verb: 'approve' | 'reject' | 'rollback', a: Action): void }) {
  return (
    <section aria-labelledby={props.id} class="card">
      <h2 id={props.id}>
        {props.title} ({props.actions.length})
      </h2>
      {props.actions.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <div class="table-wrap">
          <table class="actions">
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col">Workload</th>
                <th scope="col">Type</th>
                <th scope="col">FusedR / confidence</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="sr-only">Buttons</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.actions.map((a) => (
                <ActionRow key={a.id} action={a} autopilot={props.autopilot} busy={props.busy === a.id} onDo={props.onDo} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ActionsView(props: { client: ApiClient; onUnauthorized(): void }) {
  const { client, onUnauthorized } = props;
  const health = useLoader(() => client.health(), [], onUnauthorized, 5000);
  const list = useLoader(() => client.actions(), [], onUnauthorized, 3000);
  const stop = useLoader(() => client.emergencyStatus(), [], onUnauthorized, 5000);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const dialog = useRef<HTMLDialogElement>(null);

  const edition = health.data?.edition;
  const autopilot = edition === 'autopilot';
  const actions = list.data ?? [];
  const open = actions.filter((a) => (a.state ?? a.status) === 'pending' || (a.state ?? a.status) === 'approved');
  const done = actions.filter((a) => !open.includes(a));

  const run = async (what: string, id: string | undefined, call: () => Promise<unknown>, done: string): Promise<void> => {
    setBusy(id ?? what);
    setError(undefined);
    try {
      await call();
      setMessage(done);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      else setError(e instanceof ApiError && e.upgrade !== undefined ? `${e.message} (${e.upgrade})` : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(undefined);
      list.reload();
      stop.reload();
    }
  };

  const onDo = (verb: 'approve' | 'reject' | 'rollback', a: Action): void => {
    const call = verb === 'approve' ? () => client.approve(a.id) : verb === 'reject' ? () => client.reject(a.id) : () => client.rollback(a.id);
    const past = verb === 'approve' ? 'approved' : verb === 'reject' ? 'rejected' : 'queued for rollback';
    void run(verb, a.id, call, `Action ${a.id} ${past}.`);
  };

  const stopped = stop.data?.emergency_stop === true;
  return (
    <section aria-labelledby="actions-title">
      <div class="view-head">
        <h1 id="actions-title">Actions</h1>
        <p class="summary">
          Edition: <strong data-testid="edition">{edition ?? '…'}</strong>
        </p>
      </div>
      {!autopilot && edition !== undefined && (
        <p class="note" id="edition-note">
          {EDITION_NOTE}
        </p>
      )}
      <div class="emergency card" data-stopped={stopped ? 'yes' : 'no'}>
        <p>
          Tier-1 automation: <strong>{stopped ? `halted by emergency stop since ${formatRelative(stop.data?.since ?? undefined, Date.now())}` : 'running'}</strong>
        </p>
        {stopped ? (
          <button type="button" class="secondary" disabled={busy !== undefined} onClick={() => void run('release', undefined, () => client.releaseEmergencyStop(), 'Emergency stop released.')}>
            Release emergency stop
          </button>
        ) : (
          <button type="button" class="danger" disabled={busy !== undefined} onClick={() => dialog.current?.showModal()}>
            Emergency stop…
          </button>
        )}
      </div>
      <dialog ref={dialog} aria-labelledby="stop-title" class="confirm">
        <form method="dialog">
          <h2 id="stop-title">Halt all automatic actions?</h2>
          <p>Every Tier-1 automatic action stops at once, across the fleet, until the stop is released. Manual approvals still work.</p>
          <div class="buttons">
            <button value="cancel" class="secondary" autofocus>
              Cancel
            </button>
            <button
              value="confirm"
              class="danger"
              onClick={(e) => {
                e.preventDefault();
                dialog.current?.close();
                void run('stop', undefined, () => client.emergencyStop(), 'Emergency stop engaged: Tier-1 automation halted.');
              }}
            >
              Stop all automation
            </button>
          </div>
        </form>
      </dialog>
      <p class="status-line" role="status" aria-live="polite">
        {message}
      </p>
      <ErrorNotice error={error ?? list.error ?? health.error} />
      <ActionTable title="Pending and approved" id="pending-title" actions={open} autopilot={autopilot} busy={busy} onDo={onDo} />
      <ActionTable title="Executed and finished" id="done-title" actions={done} autopilot={autopilot} busy={busy} onDo={onDo} />
    </section>
  );
}
