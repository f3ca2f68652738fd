/** Suppression windows, context events (deploys…) and weight overrides: list, create, delete. */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/client.js';
import type { SignalName, WeightOverride, WeightSignal } from '../api/types.js';
import { SIGNAL_NAMES, WEIGHT_SIGNALS } from '../api/types.js';
import { ErrorNotice } from '../components/notice.js';
import { formatSignal, formatTimestamp } from '../model/format.js';
import { keyOf } from '../model/routes.js';
import type { Fleet } from './use-fleet.js';
import { useLoader } from './use-loader.js';

/** value of an <input type="datetime-local"> (local time) as RFC 3339 UTC */
export function localInputToIso(value: string): string | undefined {
  const t = new Date(value).getTime();
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

function localInputValue(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

function useMutation(onUnauthorized: () => void, after: () => void) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      else setError(e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setBusy(false);
      after();
    }
  };
  return { error, busy, run };
}

function Suppressions(props: { client: ApiClient; workloads: string[]; onUnauthorized(): void }) {
  const { client } = props;
  const list = useLoader(() => client.suppressions(), [], props.onUnauthorized, 10_000);
  const m = useMutation(props.onUnauthorized, () => list.reload());
  const [workload, setWorkload] = useState('');
  const [start, setStart] = useState(localInputValue(Date.now()));
  const [end, setEnd] = useState(localInputValue(Date.now() + 3_600_000));
  const [reason, setReason] = useState('');
  const [signals, setSignals] = useState<SignalName[]>([]);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const s = localInputToIso(start);
    const en = localInputToIso(end);
    if (s === undefined || en === undefined) return;
    const ok = await m.run(() => client.createSuppression({ workload: workload.trim(), start: s, end: en, ...(reason.trim() === '' ? {} : { reason: reason.trim() }), ...(signals.length === 0 ? {} : { signals }) }));
    if (ok) {
      setReason('');
      setSignals([]);
    }
  };

  return (
    <section aria-labelledby="sup-title" class="card">
      <h2 id="sup-title">Suppression windows</h2>
      <p class="muted">During a window ruptures are recorded but not sent to the action engine.</p>
      <ErrorNotice error={list.error ?? m.error} />
      {(list.data ?? []).length === 0 ? (
        <p class="muted">No active or upcoming window.</p>
      ) : (
        <ul class="rows">
          {(list.data ?? []).map((s) => (
            <li key={s.id}>
              <span>
                <strong>{s.workload}</strong> {s.active ? '(active)' : '(upcoming)'} {formatTimestamp(s.start)} → {formatTimestamp(s.end)}
                {s.reason ? ` · ${s.reason}` : ''}
                {s.signals !== null && s.signals.length > 0 ? ` · signals: ${s.signals.join(', ')}` : ''}
              </span>
              <button type="button" class="secondary" disabled={m.busy} onClick={() => void m.run(() => client.deleteSuppression(s.id))} aria-label={`Delete suppression of ${s.workload}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={(e) => void submit(e)}>
        <label>
          Workload (key, namespace/* or *)
          <input required list="workload-keys" value={workload} onInput={(e) => setWorkload(e.currentTarget.value)} />
        </label>
        <label>
          Start
          <input type="datetime-local" required value={start} onInput={(e) => setStart(e.currentTarget.value)} />
        </label>
        <label>
          End
          <input type="datetime-local" required value={end} onInput={(e) => setEnd(e.currentTarget.value)} />
        </label>
        <label>
          Reason
          <input value={reason} maxLength={1024} onInput={(e) => setReason(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>Only these signals (none = all)</legend>
          {SIGNAL_NAMES.map((name) => (
            <label class="check" key={name}>
              <input type="checkbox" checked={signals.includes(name)} onChange={(e) => setSignals(e.currentTarget.checked ? [...signals, name] : signals.filter((x) => x !== name))} /> {name}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={m.busy}>
          Create window
        </button>
      </form>
      <datalist id="workload-keys">
        {props.workloads.map((k) => (
          <option value={k} key={k} />
        ))}
      </datalist>
    </section>
  );
}

function ContextEvents(props: { client: ApiClient; onUnauthorized(): void }) {
  const { client } = props;
  const list = useLoader(() => client.contextEvents(), [], props.onUnauthorized, 10_000);
  const m = useMutation(props.onUnauthorized, () => list.reload());
  const [workload, setWorkload] = useState('');
  const [event, setEvent] = useState('deploy');
  const [description, setDescription] = useState('');
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const ok = await m.run(() => client.createContextEvent({ workload: workload.trim(), event: event.trim(), ...(description.trim() === '' ? {} : { description: description.trim() }) }));
    if (ok) setDescription('');
  };
  return (
    <section aria-labelledby="ctx-title" class="card">
      <h2 id="ctx-title">Context events</h2>
      <p class="muted">Deploys, load tests, maintenance: they anchor the timeline and damp false alarms.</p>
      <ErrorNotice error={list.error ?? m.error} />
      <ul class="rows">
        {(list.data ?? []).slice(0, 20).map((c) => (
          <li key={c.id}>
            <span>
              <strong>{c.event}</strong> {c.workload} · {formatTimestamp(c.timestamp)}
              {c.description ? ` · ${c.description}` : ''}
            </span>
            <button type="button" class="secondary" disabled={m.busy} onClick={() => void m.run(() => client.deleteContextEvent(c.id))} aria-label={`Delete ${c.event} event of ${c.workload}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      <form class="inline-form" onSubmit={(e) => void submit(e)}>
        <label>
          Workload (key or *)
          <input required list="workload-keys" value={workload} onInput={(e) => setWorkload(e.currentTarget.value)} />
        </label>
        <label>
          Event
          <input required maxLength={64} value={event} onInput={(e) => setEvent(e.currentTarget.value)} />
        </label>
        <label>
          Description
          <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={m.busy}>
          Add event
        </button>
      </form>
    </section>
  );
}

const EMPTY_WEIGHTS: Record<WeightSignal, string> = { stress: '0.25', fatigue: '0.2', mood: '0.2', pressure: '0.15', humidity: '0.1', contagion: '0.1' };

function Weights(props: { client: ApiClient; onUnauthorized(): void }) {
  const { client } = props;
  const list = useLoader(() => client.weights(), [], props.onUnauthorized, 15_000);
  const m = useMutation(props.onUnauthorized, () => list.reload());
  const [selector, setSelector] = useState('');
  const [values, setValues] = useState<Record<WeightSignal, string>>(EMPTY_WEIGHTS);
  const current = list.data ?? [];
  const save = (next: WeightOverride[]): Promise<boolean> => m.run(() => client.setWeights(next));
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const entry = { selector: selector.trim() } as WeightOverride;
    for (const s of WEIGHT_SIGNALS) entry[s] = Number(values[s]) || 0;
    if (await save([...current.filter((w) => w.selector !== entry.selector), entry])) setSelector('');
  };
  return (
    <section aria-labelledby="weights-title" class="card">
      <h2 id="weights-title">Health weight overrides</h2>
      <p class="muted">First matching selector wins; weights are normalised to sum to 1 and apply from the next analyzer tick.</p>
      <ErrorNotice error={list.error ?? m.error} />
      {current.length === 0 ? (
        <p class="muted">No override: the global defaults apply.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Selector</th>
                {WEIGHT_SIGNALS.map((s) => (
                  <th scope="col" key={s}>
                    {s}
                  </th>
                ))}
                <th scope="col">
                  <span class="sr-only">Delete</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {current.map((w) => (
                <tr key={w.selector}>
                  <th scope="row">{w.selector}</th>
                  {WEIGHT_SIGNALS.map((s) => (
                    <td key={s}>{formatSignal(w[s])}</td>
                  ))}
                  <td>
                    <button type="button" class="secondary" disabled={m.busy} aria-label={`Delete override ${w.selector}`} onClick={() => void save(current.filter((x) => x !== w))}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="inline-form" onSubmit={(e) => void submit(e)}>
        <label>
          Selector (*, namespace/* or namespace/Kind/name)
          <input required value={selector} onInput={(e) => setSelector(e.currentTarget.value)} />
        </label>
        {WEIGHT_SIGNALS.map((s) => (
          <label key={s} class="num">
            {s}
            <input type="number" min={0} step={0.05} required value={values[s]} onInput={(e) => setValues({ ...values, [s]: e.currentTarget.value })} />
          </label>
        ))}
        <button type="submit" disabled={m.busy}>
          Save override
        </button>
      </form>
    </section>
  );
}

export function ControlsView(props: { client: ApiClient; fleet: Fleet; onUnauthorized(): void }) {
  const workloads = props.fleet.items.map((i) => keyOf(i.workload));
  return (
    <section aria-labelledby="controls-title">
      <div class="view-head">
        <h1 id="controls-title">Suppressions, context and weights</h1>
      </div>
      <Suppressions client={props.client} workloads={workloads} onUnauthorized={props.onUnauthorized} />
      <ContextEvents client={props.client} onUnauthorized={props.onUnauthorized} />
      <Weights client={props.client} onUnauthorized={props.onUnauthorized} />
    </section>
  );
}
