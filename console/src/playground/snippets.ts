/** The same call as curl, an MCP tools/call, JavaScript and Python; and MCP set-ups for common clients. Never the key itself. */
const TOOLS: Record<string, string> = {
  '/crawl': 'crawl',
  '/serp-search': 'serp_search',
  '/search': 'web_search',
  '/serp-maps': 'serp_maps',
  '/headful-browser': 'headful_browser',
};

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function callSnippets(origin: string, path: string, queryString: string): Array<{ title: string; text: string }> {
  const url = `${origin}${path}${queryString ? `?${queryString}` : ''}`;
  const args: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(queryString)) args[k] = v === 'true' ? true : v === 'false' ? false : /^-?\d+$/.test(v) ? Number(v) : v;
  const tool = TOOLS[path];
  if (tool === 'headful_browser' && typeof args.urls === 'string') {
    args.url = String(args.urls).split(',')[0];
    delete args.urls;
    delete args.screenshot;
  } else if (typeof args.urls === 'string') args.urls = String(args.urls).split(',');
  const out = [
    { title: 'curl', text: `curl -H "x-api-key: $TRAWL_API_KEY" ${shellQuote(url)}` },
    {
      title: 'JavaScript',
      text: `const response = await fetch(${JSON.stringify(url)}, {\n  headers: { 'x-api-key': process.env.TRAWL_API_KEY },\n});\nconst body = await response.json();`,
    },
    {
      title: 'Python',
      text: `import os, requests\n\nresponse = requests.get(\n    ${JSON.stringify(url)},\n    headers={"x-api-key": os.environ["TRAWL_API_KEY"]},\n)\nbody = response.json()`,
    },
  ];
  if (tool) {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } };
    out.push({
      title: 'MCP',
      text: `curl -H "x-api-key: $TRAWL_API_KEY" -H 'content-type: application/json' \\\n  -H 'accept: application/json, text/event-stream' \\\n  ${origin}/mcp -d ${shellQuote(JSON.stringify(call))}`,
    });
  }
  return out;
}

export function mcpSetups(origin: string): Array<{ title: string; text: string }> {
  const mcp = `${origin}/mcp`;
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return [
    { title: 'Claude Code', text: `claude mcp add --transport http trawl ${mcp} --header "x-api-key: $TRAWL_API_KEY"` },
    { title: 'Cursor (~/.cursor/mcp.json)', text: json({ mcpServers: { trawl: { url: mcp, headers: { 'x-api-key': 'YOUR_TRAWL_API_KEY' } } } }) },
    {
      title: 'VS Code (.vscode/mcp.json)',
      text: json({
        inputs: [{ type: 'promptString', id: 'trawl-key', description: 'Trawl API key', password: true }],
        servers: { trawl: { type: 'http', url: mcp, headers: { 'x-api-key': '${input:trawl-key}' } } },
      }),
    },
    {
      title: 'Claude Desktop (claude_desktop_config.json)',
      text: json({ mcpServers: { trawl: { command: 'npx', args: ['-y', 'mcp-remote', mcp, '--header', 'x-api-key:${TRAWL_API_KEY}'], env: { TRAWL_API_KEY: 'YOUR_TRAWL_API_KEY' } } } }),
    },
  ];
}
