/** Sign in with an API key, or as the operator with ADMIN_TOKEN. A one-time link signs in by itself (main.tsx). */
import type { ConsoleSession } from '#contracts';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote } from '../widgets.js';

export function SignIn({ onSignedIn, linkError }: { onSignedIn: (session: ConsoleSession) => void; linkError: unknown }) {
  const [error, setError] = useState<unknown>(linkError);
  const submit = (body: Record<string, string>) => {
    setError(null);
    api<ConsoleSession>('POST', '/console/session', body).then(onSignedIn, setError);
  };
  return (
    <main class="sign-in" id="main">
      <h1>Trawl console</h1>
      {error ? <ErrorNote error={error} /> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit({ apiKey: String(new FormData(e.currentTarget).get('apiKey') ?? '').trim() });
        }}
      >
        <h2>Your account</h2>
        <label>
          API key <input name="apiKey" type="password" required autocomplete="off" placeholder="trawl_…" />
        </label>
        <button type="submit">Sign in</button>
        <p class="muted">
          No key at hand? <code>npm run trawl -- console:link --id ACCOUNT_ID</code> prints a one-time sign-in link.
        </p>
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit({ adminToken: String(new FormData(e.currentTarget).get('adminToken') ?? '') });
        }}
      >
        <h2>Operator</h2>
        <label>
          Admin token <input name="adminToken" type="password" required autocomplete="current-password" />
        </label>
        <button type="submit">Sign in as operator</button>
      </form>
    </main>
  );
}
