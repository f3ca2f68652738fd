/**
 * The live fleet: /ruptures polled every few seconds and at once after every band event of the
 * /events stream (a band event also updates its row before the poll answers).
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/client.js';
import type { RuptureListItem, StreamEvent } from '../api/types.js';
import { openEventStream } from '../live/event-stream.js';
import type { StreamStatus } from '../live/event-stream.js';
import { FleetHistory } from '../model/fleet-history.js';
import { keyOf } from '../model/routes.js';

const POLL_MS = 3000;
const BAND_EVENTS = new Set(['warning', 'critical', 'emergency', 'recovered']);

export interface Fleet {
  items: RuptureListItem[];
  loaded: boolean;
  history: FleetHistory;
  events: StreamEvent[];
  status: StreamStatus;
  error: string | undefined;
  refresh(): void;
}

export function isBandEvent(data: unknown): data is StreamEvent & { workload: string } {
  return typeof data === 'object' && data !== null && BAND_EVENTS.has(String((data as StreamEvent).type)) && typeof (data as StreamEvent).workload === 'string';
}

export function useFleet(client: ApiClient, apiKey: string, onUnauthorized: () => void): Fleet {
  const [items, setItems] = useState<RuptureListItem[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [error, setError] = useState<string | undefined>(undefined);
  const history = useRef(new FleetHistory()).current;
  const inFlight = useRef(false);
  const unauthorized = useRef(onUnauthorized);
  unauthorized.current = onUnauthorized;

  const refresh = useCallback(() => {
    if (inFlight.current) return;
    inFlight.current = true;
    client
      .ruptures()
      .then((list) => {
        for (const item of list) history.add(keyOf(item.workload), Date.parse(item.timestamp ?? ''), item.fused_rupture_index);
        history.forget(new Set(list.map((i) => keyOf(i.workload))));
        setItems(list);
        setLoaded(true);
        setError(undefined);
      })
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 401) unauthorized.current();
        else setError(e instanceof Error ? e.message : String(e));
      })
      .finally(() => {
        inFlight.current = false;
      });
  }, [client, history]);

  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  useEffect(() => {
    const stream = openEventStream({
      url: '/api/v2/events',
      key: apiKey,
      onStatus: (s) => {
        setStatus(s);
        if (s === 'unauthorized') unauthorized.current();
      },
      onMessage: (data) => {
        if (!isBandEvent(data)) return;
        setEvents((prev) => [data, ...prev].slice(0, 50));
        setItems((prev) =>
          prev.map((item) =>
            keyOf(item.workload) === data.workload && data.state !== undefined
              ? { ...item, state: data.state, fused_rupture_index: data.fused_r ?? item.fused_rupture_index, rupture_id: data.rupture_id ?? item.rupture_id }
              : item,
          ),
        );
        refresh();
      },
    });
    return () => stream.close();
  }, [apiKey, refresh]);

  return { items, loaded, history, events, status, error, refresh };
}
