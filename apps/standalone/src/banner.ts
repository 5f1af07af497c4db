/**
 * What `npm start` says once it listens: the phrase every script and test waits for ("Trawl is listening on <url>
 * (…)"), where the console, the API and its docs are, and how to get a first key or a one-time sign-in link. As
 * log lines for collectors (JSON), or as a short banner for a person at a terminal.
 */
export interface BannerFacts {
  url: string;
  processes: string;
  adminToken: boolean;
}

export function listeningLine(facts: BannerFacts): string {
  return `Trawl is listening on ${facts.url} (${facts.processes})`;
}

/** The first-run hints as log lines (JSON output). */
export function startLines(facts: BannerFacts): string[] {
  return [
    listeningLine(facts),
    `Console: ${facts.url}/console/ (sign in with an API key, or a one-time link: npm run trawl -- console:link --id <account id>)`,
    `Create an account and its first API key: npm run trawl -- accounts:create --name "My team" --plan free`,
    `Then: curl -H "x-api-key: <KEY>" "${facts.url}/crawl?urls=https://example.com"`,
  ];
}

/** The same for a terminal: a few aligned lines, no JSON. */
export function banner(facts: BannerFacts, colour: boolean): string {
  const bold = (s: string) => (colour ? `\u001b[1m${s}\u001b[22m` : s);
  const dim = (s: string) => (colour ? `\u001b[2m${s}\u001b[22m` : s);
  const row = (label: string, value: string) => `    ${label.padEnd(10)}${value}`;
  return [
    '',
    `  ${bold(listeningLine(facts))}`,
    '',
    row('Console', `${facts.url}/console/`),
    row('API', `${facts.url}/  ${dim('(a JSON index; OpenAPI at /openapi.json, MCP at /mcp)')}`),
    row('Docs', `${facts.url}/docs`),
    '',
    row('First key', 'npm run trawl -- accounts:create --name "My team" --plan free'),
    row('Sign in', `npm run trawl -- console:link --id <account id>  ${dim('(a one-time link to the console)')}`),
    row('Operator', facts.adminToken ? 'sign in to the console with ADMIN_TOKEN' : `set ADMIN_TOKEN ${dim('(16+ characters)')} to manage accounts in the console`),
    row('Try it', `curl -H "x-api-key: <KEY>" "${facts.url}/crawl?urls=https://example.com"`),
    '',
    '',
  ].join('\n');
}
