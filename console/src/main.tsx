/**
 * The operator console: a login with the admin key or by single sign-on
 * (a session cookie), then one view per hash
 * route (`#/logs`, `#/logs/<id>`, ...). Everything it shows comes from the
 * admin API of the gateway serving it.
 */
import 'uplot/dist/uPlot.min.css';
import '../styles.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { onKeyChange, probeSession, signedIn, signedInUser, signOut, type SsoInfo } from './api.js';
import { useRoute } from './hooks.js';
import { Login } from './login.js';
import { Audit } from './views/audit.js';
import { Channels } from './views/channels.js';
import { Keys } from './views/keys.js';
import { Logs } from './views/logs.js';
import { Overview } from './views/overview.js';
import { Playground } from './views/playground.js';
import { Prices } from './views/prices.js';
import { Settings } from './views/settings.js';
import { Tasks } from './views/tasks.js';
import { Teams } from './views/teams.js';
import { Users } from './views/users.js';

const VIEWS = [
  { path: 'overview', title: 'Overview', view: Overview },
  { path: 'keys', title: 'Keys', view: Keys },
  { path: 'teams', title: 'Teams', view: Teams },
  { path: 'users', title: 'Users', view: Users },
  { path: 'channels', title: 'Channels', view: Channels },
  { path: 'logs', title: 'Request logs', view: Logs },
  { path: 'tasks', title: 'Tasks', view: Tasks },
  { path: 'prices', title: 'Prices', view: Prices },
  { path: 'settings', title: 'Settings', view: Settings },
  { path: 'audit', title: 'Audit log', view: Audit },
  { path: 'playground', title: 'Playground', view: Playground },
];

function Shell() {
  const [section = 'overview', ...rest] = useRoute();
  const current = VIEWS.find((view) => view.path === section) ?? VIEWS[0]!;
  const View = current.view;
  useEffect(() => {
    document.title = `${current.title} · Switchyard console`;
  }, [current]);
  return (
    <div class="shell">
      <nav>
        <div class="brand">Switchyard</div>
        {VIEWS.map((view) => (
          <a key={view.path} href={`#/${view.path}`} aria-current={view === current ? 'page' : undefined}>
            {view.title}
          </a>
        ))}
        {signedInUser() && <small class="signed-in">{signedInUser()?.email}</small>}
        <button type="button" class="plain logout" onClick={() => void signOut()}>
          Log out
        </button>
      </nav>
      <main>
        <View params={rest} />
      </main>
    </div>
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
  if (inside) return <Shell />;
  // The login waits for the probe: a signed-in session goes straight to the views.
  return sso ? <Login sso={sso} /> : null;
}

render(<App />, document.getElementById('app')!);
