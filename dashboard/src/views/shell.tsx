/** Header, navigation, live-stream status and the current view. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiClient } from '../api/client.js';
import type { StreamStatus } from '../live/event-stream.js';
import type { Route } from '../model/routes.js';
import { hrefOf, parseRoute } from '../model/routes.js';
import { ActionsView } from './actions-view.js';
import { ControlsView } from './controls-view.js';
import { FleetView } from './fleet-view.js';
import { useFleet } from './use-fleet.js';
import { WorkloadView } from './workload-view.js';

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: 'connecting',
  open: 'live',
  reconnecting: 'reconnecting',
  closed: 'closed',
  unauthorized: 'key refused',
};

function useRoute(): Route {
  const [route, setRoute] = useState<Route>(parseRoute(location.hash));
  useEffect(() => {
    const onHash = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return route;
}

export function Shell(props: { apiKey: string; onUnauthorized(): void; onSignOut(): void }) {
  const client = useMemo(() => new ApiClient(props.apiKey), [props.apiKey]);
  const route = useRoute();
  const fleet = useFleet(client, props.apiKey, props.onUnauthorized);

  useEffect(() => {
    const titles: Record<Route['view'], string> = { fleet: 'Fleet', workload: 'Workload', actions: 'Actions', controls: 'Suppressions and weights' };
    document.title = `${route.view === 'workload' ? route.ref.name : titles[route.view]} · Faultline`;
  }, [route]);

  const nav = (target: Route, text: string) => (
    <a href={hrefOf(target)} aria-current={route.view === target.view ? 'page' : undefined}>
      {text}
    </a>
  );

  return (
    <div class="shell">
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">
          <img src="/favicon.svg" alt="" width={22} height={22} /> Faultline
        </span>
        <nav aria-label="Views">
          {nav({ view: 'fleet' }, 'Fleet')}
          {nav({ view: 'actions' }, 'Actions')}
          {nav({ view: 'controls' }, 'Suppressions & weights')}
        </nav>
        <span class="live" data-status={fleet.status} role="status" aria-live="polite">
          <span class="dot" aria-hidden="true" /> {STATUS_TEXT[fleet.status]}
        </span>
        <button type="button" class="link" onClick={props.onSignOut}>
          Sign out
        </button>
      </header>
      <main id="content" tabIndex={-1}>
        {route.view === 'fleet' && <FleetView fleet={fleet} client={client} onUnauthorized={props.onUnauthorized} />}
        {route.view === 'workload' && <WorkloadView client={client} ref_={route.ref} onUnauthorized={props.onUnauthorized} />}
        {route.view === 'actions' && <ActionsView client={client} onUnauthorized={props.onUnauthorized} />}
        {route.view === 'controls' && <ControlsView client={client} fleet={fleet} onUnauthorized={props.onUnauthorized} />}
      </main>
    </div>
  );
}
