/** Site crawls and batches still queued or running, with their progress; refreshed every few seconds while any run. */
import type { CrawlProgressView } from '#contracts';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { n, when } from '../format.js';

const REFRESH_MS = 5_000;

export function CrawlsPanel() {
  const [crawls, setCrawls] = useState<CrawlProgressView[]>([]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const load = () =>
      api<CrawlProgressView[]>('GET', '/account/crawls').then(
        (list) => {
          if (stopped) return;
          setCrawls(list);
          if (list.length > 0) timer = setTimeout(() => void load(), REFRESH_MS);
        },
        () => undefined,
      );
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  if (crawls.length === 0) return null;
  return (
    <section aria-labelledby="crawls-title">
      <h2 id="crawls-title">Crawls in progress</h2>
      <table class="crawls">
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Kind</th>
            <th scope="col">URL</th>
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
            <th scope="col">Credits</th>
          </tr>
        </thead>
        <tbody>
          {crawls.map((c) => (
            <tr key={c.id}>
              <td>{when(c.startedAt ?? c.createdAt)}</td>
              <td>{c.kind}</td>
              <td class="url">{c.url ?? '—'}</td>
              <td>{c.status}</td>
              <td>
                <progress max={Math.max(1, c.discovered)} value={c.done + c.failed + c.skipped} aria-label={`Progress of the crawl of ${c.url ?? c.id}`} />{' '}
                {n(c.done)} stored, {n(c.failed)} failed, {n(c.skipped)} skipped of {n(c.discovered)} found
              </td>
              <td>{n(c.credits)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
