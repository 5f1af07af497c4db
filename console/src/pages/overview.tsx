/** The account's overview: plan, balance, billing period, concurrency in use, and usage charts. */
import type { AccountOverview, UsageView } from '#contracts';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { day, n } from '../format.js';
import { ErrorNote, Loading } from '../widgets.js';
import { UsagePanel } from './usage-panel.js';

export function Overview() {
  const [data, setData] = useState<{ account: AccountOverview; usage: UsageView } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    Promise.all([api<AccountOverview>('GET', '/account'), api<UsageView>('GET', '/account/usage?days=30')]).then(
      ([account, usage]) => setData({ account, usage }),
      setError,
    );
  }, []);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loading />;
  const { account } = data;
  return (
    <>
      <h1>Overview</h1>
      <dl class="cards">
        <div>
          <dt>Plan</dt>
          <dd>
            {account.plan.name} <small>({n(account.plan.monthlyCredits)} credits a month)</small>
          </dd>
        </div>
        <div>
          <dt>Balance</dt>
          <dd data-testid="balance">{n(account.balance)} credits</dd>
        </div>
        <div>
          <dt>Billing period</dt>
          <dd>
            {day(account.period.start)} → {day(account.period.end)}
          </dd>
        </div>
        <div>
          <dt>Concurrency in use</dt>
          <dd>
            {account.concurrency.inUse} of {account.concurrency.limit}
          </dd>
        </div>
        <div>
          <dt>This period</dt>
          <dd>
            {n(account.thisPeriod.calls)} calls, {n(account.thisPeriod.credits)} credits
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd class={account.status === 'active' ? '' : 'bad'}>{account.status}</dd>
        </div>
      </dl>
      <UsagePanel usage={data.usage} idPrefix="account" />
    </>
  );
}
