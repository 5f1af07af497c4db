/**
 * What usage counts, as SQL rows of (account_id, created_at, endpoint, calls, errors, credits): every call in the
 * request log, and every crawl page charged, which has no request-log row of its own — its ledger row names the
 * endpoint (`/crawls`, `/batches`) and its reservation what it cost. A page adds its credits to that endpoint's usage,
 * not a call: the call is the request that started the crawl.
 * `scope`: the placeholders (`$1`, …) of the start and, for one account's usage, of the account id.
 */
export function usageRows(scope: { since: string; account?: string }): string {
  const where = (alias: string) =>
    `${scope.account ? `${alias}account_id = ${scope.account} AND ` : ''}${alias}created_at >= ${scope.since}`;
  return `(SELECT account_id, created_at, endpoint, 1 AS calls, (status >= 400)::int AS errors, credits::bigint AS credits
      FROM request_log WHERE ${where('')}
    UNION ALL
    SELECT l.account_id, l.created_at, l.endpoint, 0, 0, res.charged
      FROM credit_ledger l JOIN reservations res ON res.id = l.request_id
      WHERE l.kind = 'settle' AND l.endpoint IS NOT NULL AND ${where('l.')})`;
}
