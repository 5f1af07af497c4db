/** API keys: create one (shown once, here only), see when each was last used, revoke. */
import type { CreatedKeyView, KeyView } from '#contracts';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { when } from '../format.js';
import { CopyButton, ErrorNote, Loading } from '../widgets.js';

export function Keys({ onCreated }: { onCreated: (apiKey: string) => void }) {
  const [keys, setKeys] = useState<KeyView[] | null>(null);
  const [created, setCreated] = useState<CreatedKeyView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => api<KeyView[]>('GET', '/account/keys').then(setKeys, setError);
  useEffect(() => void load(), []);
  const create = async (name: string) => {
    setError(null);
    try {
      const key = await api<CreatedKeyView>('POST', '/account/keys', { name });
      setCreated(key);
      onCreated(key.apiKey);
      await load();
    } catch (e) {
      setError(e);
    }
  };
  const revoke = async (key: KeyView) => {
    if (!window.confirm(`Revoke ${key.name ?? key.prefix}? Calls with it are refused at once.`)) return;
    setError(null);
    try {
      await api('POST', `/account/keys/${key.id}/revoke`);
      if (created?.id === key.id) setCreated(null);
      await load();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <h1>API keys</h1>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          void create(String(new FormData(form).get('name') ?? '')).then(() => form.reset());
        }}
      >
        <label>
          Name <input name="name" maxLength={100} placeholder="e.g. production" autocomplete="off" />
        </label>
        <button type="submit">Create key</button>
      </form>
      {created ? (
        <div class="once" role="status" aria-live="polite">
          <p>
            <strong>Your new key{created.name ? ` “${created.name}”` : ''}.</strong> Copy it now: it is shown only this once.
          </p>
          <p>
            <code data-testid="new-key">{created.apiKey}</code> <CopyButton text={created.apiKey} label="Copy key" />
          </p>
          <p class="muted">The playground uses it for this visit; it is not stored anywhere in the browser.</p>
        </div>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
      {!keys ? (
        <Loading />
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} class={k.revokedAt ? 'revoked' : ''}>
                <td>{k.name ?? <span class="muted">unnamed</span>}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{when(k.createdAt)}</td>
                <td>{when(k.lastUsedAt)}</td>
                <td>{k.revokedAt ? `revoked ${when(k.revokedAt)}` : 'live'}</td>
                <td>
                  {k.revokedAt ? null : (
                    <button type="button" class="danger" onClick={() => void revoke(k)} aria-label={`Revoke ${k.name ?? k.prefix}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
