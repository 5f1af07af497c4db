/**
 * A readable API reference rendered from the OpenAPI document on the server: one self-contained HTML page, no
 * scripts, nothing fetched from elsewhere (Trawl is self-hosted and may run without internet access).
 */
type Json = Record<string, any>;

const esc = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `code` spans for backticks in the reference's prose. */
const prose = (text: unknown) => esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function typeOf(schema: Json): string {
  if (schema.enum) return schema.enum.map((v: unknown) => String(v)).join(' | ');
  if (schema.type === 'array') return `list of ${typeOf(schema.items ?? {})}`;
  const range = schema.minimum !== undefined && schema.maximum !== undefined ? ` ${schema.minimum}–${schema.maximum}` : '';
  return `${schema.type ?? 'any'}${range}`;
}

function rowsHtml(entries: Array<{ name: string; schema: Json; required: boolean; description: unknown }>): string {
  return entries
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code></td><td>${esc(typeOf(p.schema))}</td>` +
        `<td>${p.required ? 'required' : p.schema.default !== undefined ? `<code>${esc(JSON.stringify(p.schema.default))}</code>` : '—'}</td>` +
        `<td>${prose(p.description)}</td></tr>`,
    )
    .join('');
}

const table = (title: string, rows: string) =>
  rows ? `<h3>${title}</h3><table><tr><th>name</th><th>type</th><th>default</th><th></th></tr>${rows}</table>` : '';

/** The JSON body's fields, from the schema the request body names (a `$ref` into components). */
function bodyRows(op: Json, document: Json): string {
  const ref: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref;
  const schema: Json | undefined = ref?.startsWith('#/components/schemas/') ? document.components?.schemas?.[ref.slice(21)] : undefined;
  if (!schema?.properties) return '';
  const required = new Set<string>(schema.required ?? []);
  return rowsHtml(
    Object.entries(schema.properties as Record<string, Json>).map(([name, field]) => ({ name, schema: field, required: required.has(name), description: field.description })),
  );
}

function operationHtml(path: string, method: string, op: Json, document: Json): string {
  const params = (op.parameters ?? []) as Json[];
  const rows = (where: string) =>
    rowsHtml(params.filter((p) => p.in === where).map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true, description: p.description })));
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
    .map(([status, r]) => `<tr><td>${esc(status)}</td><td>${prose(r.description)}</td></tr>`)
    .join('');
  return (
    `<section id="${esc(op.operationId)}"><h2><span class="m">${esc(method.toUpperCase())}</span> ${esc(path)}</h2>` +
    `<p><strong>${prose(op.summary)}</strong></p><p>${prose(op.description)}</p>` +
    table('Path parameters', rows('path')) +
    table('Query parameters', rows('query')) +
    table('JSON body', bodyRows(op, document)) +
    `<h3>Responses</h3><table><tr><th>status</th><th></th></tr>${responses}</table></section>`
  );
}

export function referencePage(document: Json): string {
  const sections: string[] = [];
  const toc: string[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      sections.push(operationHtml(path, method, op as Json, document));
      toc.push(`<li><a href="#${esc((op as Json).operationId)}">${esc(method.toUpperCase())} ${esc(path)}</a></li>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(document.info?.title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}td,th{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px}.m{background:#2a6;color:#fff;border-radius:4px;padding:0 .4rem;font-size:.8em}
section{border-top:2px solid #eee;margin-top:2rem}</style></head><body>
<h1>${esc(document.info?.title)} <small>${esc(document.info?.version)}</small></h1><p>${prose(document.info?.description)}</p>
<p>Machine-readable: <a href="/openapi.json"><code>/openapi.json</code></a> (OpenAPI ${esc(document.openapi)}).</p>
<ul>${toc.join('')}</ul>${sections.join('')}</body></html>`;
}
