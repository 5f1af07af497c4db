/**
 * The Trawl console: the account's overview, request log, keys and playground, and the operator's pages, over the
 * gateway's documented JSON API. Routes are paths under /console/ (the gateway serves the page for each).
 */
import './style.css';
import type { ConsoleSession } from '#contracts';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, useSession } from './api.js';
import { Keys } from './pages/keys.js';
import { OperatorAccounts, OperatorHealth, OperatorPlans, OperatorUsage } from './pages/operator.js';
import { Overview } from './pages/overview.js';
import { Playground } from './pages/playground.js';
import { Requests } from './pages/requests.js';
import { SignIn } from './pages/sign-in.js';
import { Loading } from './widgets.js';

const BASE = '/console';
const ACCOUNT_PAGES = [
  { path: '/', title: 'Overview' },
  { path: '/requests', title: 'Request log' },
  { path: '/keys', title: 'API keys' },
  { path: '/playground', title: 'Playground' },
];
const OPERATOR_PAGES = [
  { path: '/operator/accounts', title: 'Accounts' },
  { path: '/operator/plans', title: 'Plans' },
  { path: '/operator/usage', title: 'Usage' },
  { path: '/operator/health', title: 'Health' },
];

const currentPath = () => location.pathname.slice(BASE.length).replace(/\/+$/, '') || '/';

function App() {
  const [session, setSession] = useState<ConsoleSession | null | undefined>(undefined);
  const [path, setPath] = useState(currentPath());
  const [linkError, setLinkError] = useState<unknown>(null);
  // The key created on the Keys page, for the playground: this page's memory only, never stored.
  const [apiKey, setApiKey] = useState('');

  const signedIn = (s: ConsoleSession | null) => {
    useSession(s);
    setSession(s);
  };
  useEffect(() => {
    const link = /^#link=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
    if (link) {
      // The token leaves the address bar (and history) before anything else happens.
      history.replaceState(null, '', `${BASE}/`);
      setPath('/');
      api<ConsoleSession>('POST', '/console/session', { link }).then(signedIn, (e: unknown) => {
        setLinkError(e);
        signedIn(null);
      });
      return;
    }
    api<ConsoleSession>('GET', '/console/session').then(signedIn, () => signedIn(null));
  }, []);
  useEffect(() => {
    const onPop = () => setPath(currentPath());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const pages = session?.kind === 'admin' ? OPERATOR_PAGES : ACCOUNT_PAGES;
  useEffect(() => {
    const page = pages.find((p) => p.path === path);
    document.title = page ? `${page.title} · Trawl console` : 'Trawl console';
  }, [path, session?.kind]);
  if (session === undefined) return <Loading />;
  if (session === null) return <SignIn onSignedIn={signedIn} linkError={linkError} />;
  if (!pages.some((p) => p.path === path)) {
    history.replaceState(null, '', `${BASE}${pages[0].path}`);
    setPath(pages[0].path);
    return <Loading />;
  }
  const go = (to: string) => (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    history.pushState(null, '', `${BASE}${to}`);
    setPath(to);
  };
  const signOut = () =>
    api('DELETE', '/console/session').then(
      () => signedIn(null),
      (e: unknown) => (e instanceof ApiError && e.status === 401 ? signedIn(null) : undefined),
    );
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Trawl</span>
        <nav aria-label="Console">
          <ul>
            {pages.map((p) => (
              <li key={p.path}>
                <a href={`${BASE}${p.path}`} aria-current={p.path === path ? 'page' : undefined} onClick={go(p.path)}>
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{session.kind === 'admin' ? 'Operator' : session.account?.name}</span>
        <a href="/docs" class="docs">
          API docs
        </a>
        <button type="button" class="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main">
        {path === '/' ? <Overview /> : null}
        {path === '/requests' ? <Requests /> : null}
        {path === '/keys' ? <Keys onCreated={setApiKey} /> : null}
        {path === '/playground' ? <Playground apiKey={apiKey} setApiKey={setApiKey} /> : null}
        {path === '/operator/accounts' ? <OperatorAccounts /> : null}
        {path === '/operator/plans' ? <OperatorPlans /> : null}
        {path === '/operator/usage' ? <OperatorUsage /> : null}
        {path === '/operator/health' ? <OperatorHealth /> : null}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
