/** Usage charts and the per-endpoint table: the account's overview and the operator's usage page share them. */
import type { UsageView } from '#contracts';
import { BarChart } from '../chart.js';
import { byEndpoint, callSeries, creditSeries, daysFrom, n } from '../format.js';

export function UsagePanel({ usage, idPrefix }: { usage: UsageView; idPrefix: string }) {
  const days = daysFrom(usage.since);
  const totals = byEndpoint(usage.days);
  return (
    <section aria-labelledby={`${idPrefix}-usage`}>
      <h2 id={`${idPrefix}-usage`}>Last {days.length} days</h2>
      <div class="charts">
        <BarChart id={`${idPrefix}-credits`} title="Credits per day, by endpoint" labels={days} series={creditSeries(days, usage.days)} />
        <BarChart id={`${idPrefix}-calls`} title="Calls per day, errors apart" labels={days} series={callSeries(days, usage.days)} />
      </div>
      <table class="per-endpoint">
        <caption>By endpoint</caption>
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Calls</th>
            <th scope="col">Errors</th>
            <th scope="col">Credits</th>
          </tr>
        </thead>
        <tbody>
          {totals.length === 0 ? (
            <tr>
              <td colSpan={4}>No calls yet.</td>
            </tr>
          ) : (
            totals.map((t) => (
              <tr key={t.endpoint}>
                <th scope="row">{t.endpoint}</th>
                <td>{n(t.calls)}</td>
                <td class={t.errors > 0 ? 'bad' : ''}>{n(t.errors)}</td>
                <td>{n(t.credits)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
