/** The operator's pages (ADMIN_TOKEN): accounts, plans, usage across accounts, workers, queues and proxies. */
import type { AdminHealthView, AdminUsageView } from '#contracts';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { n, when } from '../format.js';
import { CopyButton, ErrorNote, Loading } from '../widgets.js';
import { UsagePanel } from './usage-panel.js';

interface Plan {
  id: string;
  name: string;
  monthlyCredits: number;
  concurrencyLimit: number;
  priceUsdCents: number;
}
interface AccountRow {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  planId: string;
  balance: number;
}

export function OperatorAccounts() {
  const [accounts, setAccounts] = useState<AccountRow[] | null>(null);
  const [plans, setPlans] = useState<Plan[]>([]);
  const [created, setCreated] = useState<{ accountId: string; apiKey: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  const load = () => api<AccountRow[]>('GET', '/admin/accounts').then(setAccounts, setError);
  useEffect(() => {
    void load();
    api<Plan[]>('GET', '/admin/plans').then(setPlans, setError);
  }, []);
  const act = async (what: string, work: () => Promise<unknown>) => {
    setError(null);
    setNote('');
    try {
      await work();
      setNote(what);
      await load();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <h1>Accounts</h1>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          void act('Account created', async () => {
            setCreated(await api('POST', '/admin/accounts', { name: String(data.get('name') ?? ''), plan: String(data.get('plan') ?? 'free') }));
            form.reset();
          });
        }}
      >
        <label>
          Name <input name="name" required maxLength={200} autocomplete="off" />
        </label>
        <div class="stack">
          <label for="new-account-plan">Plan</label>
          <select id="new-account-plan" name="plan">
              {plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </select>
        </div>
        <button type="submit">Create account</button>
      </form>
      {created ? (
        <div class="once" role="status">
          <p>
            <strong>Account created.</strong> Its first API key, shown only this once:
          </p>
          <p>
            <code data-testid="new-account-key">{created.apiKey}</code> <CopyButton text={created.apiKey} label="Copy key" />
          </p>
        </div>
      ) : null}
      {note ? <p role="status">{note}</p> : null}
      {error ? <ErrorNote error={error} /> : null}
      {!accounts ? (
        <Loading />
      ) : (
        <table class="accounts">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Balance</th>
              <th scope="col">Plan</th>
              <th scope="col">Grant credits</th>
              <th scope="col">
                <span class="sr-only">Suspend or activate</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id} data-account={a.name}>
                <th scope="row">
                  {a.name}
                  <br />
                  <small class="muted">{a.id}</small>
                </th>
                <td class={a.status === 'active' ? '' : 'bad'}>{a.status}</td>
                <td data-testid="account-balance">{n(a.balance)}</td>
                <td>
                  <select
                    aria-label={`Plan of ${a.name}`}
                    value={a.planId}
                    onChange={(e) => void act(`Plan of ${a.name} changed`, () => api('POST', `/admin/accounts/${a.id}/plan`, { plan: e.currentTarget.value }))}
                  >
                    {plans.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <form
                    class="grant"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const form = e.currentTarget;
                      const credits = Number(new FormData(form).get('credits'));
                      void act(`Granted ${n(credits)} credits to ${a.name}`, () => api('POST', `/admin/accounts/${a.id}/grant`, { credits })).then(() => form.reset());
                    }}
                  >
                    <input name="credits" type="number" min={1} step={1} required aria-label={`Credits to grant to ${a.name}`} />
                    <button type="submit">Grant</button>
                  </form>
                </td>
                <td>
                  {a.status === 'active' ? (
                    <button type="button" class="danger" onClick={() => void act(`${a.name} suspended`, () => api('POST', `/admin/accounts/${a.id}/suspend`))}>
                      Suspend
                    </button>
                  ) : (
                    <button type="button" class="secondary" onClick={() => void act(`${a.name} activated`, () => api('POST', `/admin/accounts/${a.id}/activate`))}>
                      Activate
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

export function OperatorPlans() {
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api<Plan[]>('GET', '/admin/plans').then(setPlans, setError), []);
  if (error) return <ErrorNote error={error} />;
  if (!plans) return <Loading />;
  return (
    <>
      <h1>Plans</h1>
      <table>
        <thead>
          <tr>
            <th scope="col">Plan</th>
            <th scope="col">Credits a month</th>
            <th scope="col">Concurrent requests</th>
            <th scope="col">Price a month</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.id}>
              <th scope="row">{p.name}</th>
              <td>{n(p.monthlyCredits)}</td>
              <td>{p.concurrencyLimit}</td>
              <td>${(p.priceUsdCents / 100).toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function OperatorUsage() {
  const [usage, setUsage] = useState<AdminUsageView | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api<AdminUsageView>('GET', '/admin/usage?days=30').then(setUsage, setError), []);
  if (error) return <ErrorNote error={error} />;
  if (!usage) return <Loading />;
  return (
    <>
      <h1>Usage across accounts</h1>
      <UsagePanel usage={usage} idPrefix="all" />
      <table>
        <caption>By account (since {when(usage.since)})</caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Calls</th>
            <th scope="col">Errors</th>
            <th scope="col">Credits</th>
          </tr>
        </thead>
        <tbody>
          {usage.accounts.map((a) => (
            <tr key={a.accountId}>
              <th scope="row">{a.name}</th>
              <td>{n(a.calls)}</td>
              <td class={a.errors ? 'bad' : ''}>{n(a.errors)}</td>
              <td>{n(a.credits)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function OperatorHealth() {
  const [health, setHealth] = useState<AdminHealthView | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api<AdminHealthView>('GET', '/admin/health').then(setHealth, setError), []);
  if (error) return <ErrorNote error={error} />;
  if (!health) return <Loading />;
  return (
    <>
      <h1>Health</h1>
      <p>
        <a href="/admin/queues">Open the queue dashboard</a> (jobs of every queue, with retries and failures).
      </p>
      <h2>Workers seen in the last minute</h2>
      <dl class="cards">
        {Object.entries(health.workers).map(([kind, count]) => (
          <div key={kind}>
            <dt>{kind}</dt>
            <dd class={count > 0 ? 'good' : 'muted'}>{count}</dd>
          </div>
        ))}
      </dl>
      <table>
        <caption>Queues</caption>
        <thead>
          <tr>
            <th scope="col">Queue</th>
            <th scope="col">Waiting</th>
            <th scope="col">Active</th>
            <th scope="col">Delayed</th>
            <th scope="col">Failed</th>
            <th scope="col">Completed</th>
          </tr>
        </thead>
        <tbody>
          {health.queues.map((q) => (
            <tr key={q.name}>
              <th scope="row">{q.name}</th>
              <td>{n(q.waiting)}</td>
              <td>{n(q.active)}</td>
              <td>{n(q.delayed)}</td>
              <td class={q.failed ? 'bad' : ''}>{n(q.failed)}</td>
              <td>{n(q.completed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>Proxy pools of the workers in this process</caption>
        <thead>
          <tr>
            <th scope="col">Pool</th>
            <th scope="col">Country</th>
            <th scope="col">Configured</th>
            <th scope="col">Health</th>
            <th scope="col">Resting</th>
          </tr>
        </thead>
        <tbody>
          {health.proxies.length === 0 ? (
            <tr>
              <td colSpan={5}>No proxies configured here (PROXIES, RESIDENTIAL_PROXIES, RESIDENTIAL_PROXY_URL).</td>
            </tr>
          ) : (
            health.proxies.map((p) => (
              <tr key={`${p.pool}-${p.country}`}>
                <td>{p.pool}</td>
                <td>{p.country}</td>
                <td>{p.configured}</td>
                <td>{p.health === undefined ? '—' : `${Math.round(p.health * 100)} %`}</td>
                <td>{p.resting ?? '—'}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </>
  );
}
