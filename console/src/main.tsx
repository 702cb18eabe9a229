/**
 * The operator console: a login with the admin key, a personal admin token
 * or by single sign-on (a session cookie), then one view per hash route
 * (`#/logs`, `#/logs/<id>`, ...), only those the caller's permissions allow
 * (access.ts, from `GET /admin/me`). Everything it shows comes from the
 * admin API of the gateway serving it.
 */
import 'uplot/dist/uPlot.min.css';
import '../styles.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { loadMe, MeContext, mayRead, mayWrite } from './access.js';
import { onKeyChange, probeSession, signedIn, signOut, type SsoInfo } from './api.js';
import { useLoad, useRoute } from './hooks.js';
import type { Me } from './types.js';
import { Login } from './login.js';
import { Audit } from './views/audit.js';
import { Budgets } from './views/budgets.js';
import { Channels } from './views/channels.js';
import { Keys } from './views/keys.js';
import { Logs } from './views/logs.js';
import { Overview } from './views/overview.js';
import { Playground } from './views/playground.js';
import { Prices } from './views/prices.js';
import { Settings } from './views/settings.js';
import { Tasks } from './views/tasks.js';
import { Teams } from './views/teams.js';
import { Tokens } from './views/tokens.js';
import { Users } from './views/users.js';

const VIEWS = [
  { path: 'overview', title: 'Overview', view: Overview },
  { path: 'keys', title: 'Keys', view: Keys },
  { path: 'teams', title: 'Teams', view: Teams },
  { path: 'users', title: 'Users', view: Users },
  { path: 'budgets', title: 'Budgets', view: Budgets },
  { path: 'channels', title: 'Channels', view: Channels },
  { path: 'logs', title: 'Request logs', view: Logs },
  { path: 'tasks', title: 'Tasks', view: Tasks },
  { path: 'prices', title: 'Prices', view: Prices },
  { path: 'settings', title: 'Settings', view: Settings },
  { path: 'audit', title: 'Audit log', view: Audit },
  { path: 'playground', title: 'Playground', view: Playground },
  { path: 'tokens', title: 'Your tokens', view: Tokens },
];

function Shell({ me }: { me: Me }) {
  const [section = 'overview', ...rest] = useRoute();
  // The admin key is no person: it has no tokens of its own.
  const views = VIEWS.filter((view) => mayRead(me, view.path) && (view.path !== 'tokens' || me.user !== null));
  const current = views.find((view) => view.path === section) ?? views[0] ?? VIEWS.at(-1)!;
  const View = current.view;
  useEffect(() => {
    document.title = `${current.title} · Switchyard console`;
  }, [current]);
  return (
    <MeContext.Provider value={me}>
      <div class="shell">
        <nav>
          <div class="brand">Switchyard</div>
          {views.map((view) => (
            <a key={view.path} href={`#/${view.path}`} aria-current={view === current ? 'page' : undefined}>
              {view.title}
            </a>
          ))}
          <small class="muted who">{me.user ? me.user.email : 'admin key'}</small>
          <button type="button" class="plain logout" onClick={() => void signOut()}>
            Log out
          </button>
        </nav>
        {/* Without the view's write permission its create, edit and delete buttons (data-write) are hidden. */}
        <main data-read-only={mayWrite(me, current.path) ? undefined : ''}>
          <View params={rest} />
        </main>
      </div>
    </MeContext.Provider>
  );
}

function App() {
  const [inside, setInside] = useState(signedIn());
  const [sso, setSso] = useState<SsoInfo | null>(null);
  useEffect(() => {
    const off = onKeyChange(() => setInside(signedIn()));
    void probeSession().then(setSso);
    return off;
  }, []);
  const me = useLoad(() => (inside ? loadMe() : Promise.resolve(undefined)), [inside]);
  // The login waits for the probe: a signed-in session goes straight to the views.
  if (!inside) return sso ? <Login sso={sso} /> : null;
  return me.data ? <Shell me={me.data} /> : <div class="login">{me.error ? me.error.message : 'Loading…'}</div>;
}

render(<App />, document.getElementById('app')!);
