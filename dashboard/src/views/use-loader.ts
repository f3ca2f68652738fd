/** Loads a value now, again every `everyMs` (when given) and whenever `deps` change. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  reload(): void;
}

export function useLoader<T>(load: () => Promise<T>, deps: unknown[], onUnauthorized: () => void, everyMs?: number): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const generation = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const unauthorized = useRef(onUnauthorized);
  unauthorized.current = onUnauthorized;

  const reload = useCallback(() => {
    const mine = generation.current;
    loader
      .current()
      .then((value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
      })
      .catch((e: unknown) => {
        if (mine !== generation.current) return;
        if (e instanceof ApiError && e.status === 401) unauthorized.current();
        else setError(e instanceof Error ? e.message : String(e));
      });
  }, []);

  useEffect(() => {
    generation.current += 1;
    setData(undefined);
    setError(undefined);
    reload();
    if (everyMs === undefined) return undefined;
    const timer = setInterval(reload, everyMs);
    return () => clearInterval(timer);
  }, deps);

  return { data, error, reload };
}
