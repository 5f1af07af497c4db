/** The request log: every call, newest first, filtered and paged; a call's detail (a crawl's URLs and outcomes). */
import type { RequestDetailView, RequestPage } from '#contracts';
import { useEffect, useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { n, when } from '../format.js';
import { ErrorNote, Loading } from '../widgets.js';
import { CrawlsPanel } from './crawls-panel.js';

export function Requests() {
  const [filter, setFilter] = useState({ endpoint: '', outcome: '' });
  const [cursors, setCursors] = useState<string[]>([]);
  const [page, setPage] = useState<RequestPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<RequestDetailView | null>(null);
  const before = cursors[cursors.length - 1];
  useEffect(() => {
    setError(null);
    api<RequestPage>('GET', `/account/requests${query({ endpoint: filter.endpoint, outcome: filter.outcome, before, limit: 25 })}`).then(setPage, setError);
  }, [filter.endpoint, filter.outcome, before]);
  const open = (id: string) => api<RequestDetailView>('GET', `/account/requests/${id}`).then(setSelected, setError);
  return (
    <>
      <h1>Request log</h1>
      <CrawlsPanel />
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          setCursors([]);
          setFilter({ endpoint: String(data.get('endpoint') ?? ''), outcome: String(data.get('outcome') ?? '') });
        }}
      >
        <div class="stack">
          <label for="filter-endpoint">Endpoint</label>
          <select id="filter-endpoint" name="endpoint" value={filter.endpoint}>
              <option value="">all</option>
              {(page?.endpoints ?? []).map((e) => (
                <option key={e} value={e}>
                  {e}
                </option>
              ))}
          </select>
        </div>
        <div class="stack">
          <label for="filter-outcome">Outcome</label>
          <select id="filter-outcome" name="outcome" value={filter.outcome}>
              <option value="">all</option>
              <option value="ok">successful</option>
              <option value="error">errors</option>
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      {error ? <ErrorNote error={error} /> : null}
      {!page ? (
        <Loading />
      ) : (
        <>
          <table class="log">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Credits</th>
                <th scope="col">Duration</th>
                <th scope="col">Error</th>
                <th scope="col">Request id</th>
              </tr>
            </thead>
            <tbody>
              {page.requests.length === 0 ? (
                <tr>
                  <td colSpan={7}>No calls match.</td>
                </tr>
              ) : (
                page.requests.map((r) => (
                  <tr key={r.id} class={r.status >= 400 ? 'failed' : ''}>
                    <td>
                      <button type="button" class="link" onClick={() => void open(r.id)} aria-label={`Details of the ${r.endpoint} call at ${when(r.createdAt)}`}>
                        {when(r.createdAt)}
                      </button>
                    </td>
                    <td>{r.endpoint}</td>
                    <td>{r.status}</td>
                    <td>{n(r.credits)}</td>
                    <td>{n(r.durationMs)} ms</td>
                    <td>{r.errorCode ?? ''}</td>
                    <td>
                      <code>{r.requestId ?? r.id}</code>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages of the request log">
            <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors([])}>
              Newest
            </button>
            <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </button>
            <button type="button" class="secondary" disabled={!page.cursor} onClick={() => page.cursor && setCursors([...cursors, page.cursor])}>
              Older
            </button>
          </nav>
        </>
      )}
      {selected ? <Detail request={selected} onClose={() => setSelected(null)} /> : null}
    </>
  );
}

function Detail({ request, onClose }: { request: RequestDetailView; onClose: () => void }) {
  return (
    <section class="detail" aria-labelledby="detail-title">
      <h2 id="detail-title">
        {request.endpoint} at {when(request.createdAt)}
      </h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>{request.status}</dd>
        <dt>Credits</dt>
        <dd>{n(request.credits)}</dd>
        <dt>Duration</dt>
        <dd>{n(request.durationMs)} ms</dd>
        <dt>Error</dt>
        <dd>{request.errorCode ?? '—'}</dd>
        <dt>Request id</dt>
        <dd>
          <code>{request.requestId ?? request.id}</code>
        </dd>
        <dt>Call id</dt>
        <dd>
          <code>{request.id}</code>
        </dd>
        {request.detail?.egress ? (
          <>
            <dt>Sent from</dt>
            <dd>{request.detail.egress.via === 'proxy' ? `a proxy of ${request.detail.egress.country ?? 'any country'}` : 'direct (no proxy)'}</dd>
          </>
        ) : null}
      </dl>
      {request.detail && request.detail.urls.length > 0 ? (
        <table class="urls">
          <caption>URLs of this call</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Status</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {request.detail.urls.map((u, i) => (
              <tr key={i} class={u.error ? 'failed' : ''}>
                <td class="url">{u.url}</td>
                <td>{u.status_code ?? '—'}</td>
                <td>{u.error ?? 'ok'}</td>
              </tr>
            ))}
            {request.detail.more ? (
              <tr>
                <td colSpan={3}>… and {request.detail.more} more</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      ) : null}
      <button type="button" class="secondary" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
