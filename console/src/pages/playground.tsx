/**
 * The playground: a form per endpoint built from /openapi.json, the call made with an API key exactly as a client
 * makes it, and the answer as JSON, as sanitised Markdown and screenshots, with its credits and the same call as
 * curl, MCP, JavaScript and Python. The key lives in this page's memory only.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Markdown } from '../safe-html.js';
import { operationsOf, problemOf, queryOf, type Field, type Operation } from '../playground/fields.js';
import { callSnippets, mcpSetups } from '../playground/snippets.js';
import { ErrorNote, Loading, Snippet } from '../widgets.js';

interface Answer {
  status: number;
  ms: number;
  body: unknown;
  credits: number | null;
}

const MAX_JSON_CHARS = 200_000;

export function Playground({ apiKey, setApiKey }: { apiKey: string; setApiKey: (key: string) => void }) {
  const [operations, setOperations] = useState<Operation[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [path, setPath] = useState('/crawl');
  const [values, setValues] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    fetch('/openapi.json')
      .then((r) => r.json())
      .then((doc) => setOperations(operationsOf(doc)), setError);
  }, []);
  const operation = operations?.find((o) => o.path === path) ?? operations?.[0];
  useEffect(() => {
    if (operation) setValues(Object.fromEntries(operation.fields.map((f) => [f.name, f.default])));
    setProblems({});
    setAnswer(null);
  }, [operation?.path]);
  const queryString = useMemo(() => (operation ? queryOf(operation.fields, values) : ''), [operation, values]);
  if (error) return <ErrorNote error={error} />;
  if (!operations || !operation) return <Loading />;

  const send = async () => {
    const found: Record<string, string> = {};
    for (const f of operation.fields) {
      const problem = problemOf(f, values[f.name] ?? '');
      if (problem) found[f.name] = problem;
    }
    if (!apiKey.trim()) found.apiKey = 'An API key is required (create one on the Keys page)';
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    const started = performance.now();
    try {
      const response = await fetch(`${operation.path}?${queryString}`, { headers: { 'x-api-key': apiKey.trim(), accept: 'application/json' } });
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      const credits = typeof body?.credits === 'number' ? body.credits : typeof body?.credits_used === 'number' ? body.credits_used : null;
      setAnswer({ status: response.status, ms: Math.round(performance.now() - started), body, credits });
    } catch (e) {
      setAnswer({ status: 0, ms: Math.round(performance.now() - started), body: { error: { code: 'NETWORK', message: String(e) } }, credits: null });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <h1>Playground</h1>
      <form
        class="playground"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <label for="endpoint">Endpoint</label>
        <select id="endpoint" value={operation.path} onChange={(e) => setPath(e.currentTarget.value)}>
            {operations.map((o) => (
              <option key={o.path} value={o.path}>
                GET {o.path}
              </option>
            ))}
        </select>
        <p class="muted">{operation.summary}</p>
        <label>
          API key
          <input
            type="password"
            autocomplete="off"
            value={apiKey}
            onInput={(e) => setApiKey(e.currentTarget.value)}
            aria-invalid={problems.apiKey ? 'true' : undefined}
            aria-describedby={problems.apiKey ? 'problem-apiKey' : undefined}
          />
        </label>
        {problems.apiKey ? (
          <p class="problem" id="problem-apiKey">
            {problems.apiKey}
          </p>
        ) : null}
        <fieldset>
          <legend>Parameters</legend>
          {operation.fields.map((f) => (
            <FieldInput key={f.name} field={f} value={values[f.name] ?? ''} problem={problems[f.name]} onChange={(v) => setValues({ ...values, [f.name]: v })} />
          ))}
        </fieldset>
        <button type="submit" disabled={sending}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </form>
      {answer ? <AnswerView answer={answer} /> : null}
      <section aria-labelledby="snippets-title">
        <h2 id="snippets-title">The same call</h2>
        {callSnippets(location.origin, operation.path, queryString).map((s) => (
          <Snippet key={s.title} title={s.title} text={s.text} />
        ))}
      </section>
      <section aria-labelledby="mcp-title">
        <h2 id="mcp-title">Use Trawl from an MCP client</h2>
        {mcpSetups(location.origin).map((s) => (
          <Snippet key={s.title} title={s.title} text={s.text} />
        ))}
      </section>
    </>
  );
}

function FieldInput({ field, value, problem, onChange }: { field: Field; value: string; problem?: string; onChange: (v: string) => void }) {
  const id = `field-${field.name}`;
  const described = [field.description ? `${id}-help` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': problem ? ('true' as const) : undefined, 'aria-describedby': described };
  let input;
  if (field.kind === 'boolean') {
    input = <input {...common} type="checkbox" checked={value === 'true'} onChange={(e) => onChange(e.currentTarget.checked ? 'true' : 'false')} />;
  } else if (field.kind === 'enum') {
    input = (
      <select {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {field.required ? null : <option value="">(default)</option>}
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'list') {
    input = <textarea {...common} rows={2} value={value} placeholder="comma-separated" onInput={(e) => onChange(e.currentTarget.value)} />;
  } else {
    input = (
      field.kind === 'text' ? (
        <input {...common} type="text" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
      ) : (
        <input {...common} type="number" min={field.schema.minimum} max={field.schema.maximum} value={value} onInput={(e) => onChange(e.currentTarget.value)} />
      )
    );
  }
  return (
    <div class={`field ${field.kind}`}>
      <label for={id}>
        {field.name}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {input}
      {field.description ? (
        <small id={`${id}-help`} class="muted">
          {field.description}
        </small>
      ) : null}
      {problem ? (
        <p class="problem" id={`${id}-problem`}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** Markdown, screenshots and page fields of any response shape: results[], data[], pages{}.page_content. */
function renderables(body: unknown): Array<{ label: string; markdown?: string; screenshot?: string }> {
  const out: Array<{ label: string; markdown?: string; screenshot?: string }> = [];
  const visit = (item: Record<string, unknown>, label: string) => {
    const markdown = typeof item.markdown === 'string' ? item.markdown : typeof item.page_markdown === 'string' ? item.page_markdown : undefined;
    const shot = typeof item.screenshot === 'string' ? item.screenshot : undefined;
    const screenshot = shot ? (shot.startsWith('/') || shot.startsWith(location.origin) ? shot : /^[A-Za-z0-9+/=]+$/.test(shot.slice(0, 200)) ? `data:image/png;base64,${shot}` : undefined) : undefined;
    if (markdown !== undefined || screenshot) out.push({ label, markdown, screenshot });
  };
  const b = body as Record<string, unknown> | null;
  for (const list of [b?.results, b?.data]) if (Array.isArray(list)) for (const item of list) visit(item as Record<string, unknown>, String((item as { url?: unknown }).url ?? ''));
  if (b?.pages && typeof b.pages === 'object') {
    for (const [n, page] of Object.entries(b.pages as Record<string, { page_content?: Record<string, unknown> }>)) if (page.page_content) visit(page.page_content, `page ${n}`);
  }
  return out;
}

function AnswerView({ answer }: { answer: Answer }) {
  const json = JSON.stringify(answer.body, null, 2) ?? '';
  const items = renderables(answer.body);
  return (
    <section class="answer" aria-labelledby="answer-title" aria-live="polite">
      <h2 id="answer-title">Response</h2>
      <p>
        <span class={answer.status >= 400 || answer.status === 0 ? 'bad' : 'good'} data-testid="answer-status">
          HTTP {answer.status}
        </span>{' '}
        in {answer.ms} ms
        {answer.credits !== null ? (
          <>
            {' '}
            · <strong data-testid="answer-credits">{answer.credits} credits</strong>
          </>
        ) : null}
      </p>
      {items.map((item, i) => (
        <article key={i} class="rendered">
          <h3 class="url">{item.label}</h3>
          {item.markdown !== undefined ? <Markdown source={item.markdown} label={`Markdown of ${item.label}`} /> : null}
          {item.screenshot ? <img src={item.screenshot} alt={`Screenshot of ${item.label}`} class="shot" /> : null}
        </article>
      ))}
      <details open={items.length === 0}>
        <summary>JSON</summary>
        <pre class="json" tabIndex={0}>
          <code>{json.length > MAX_JSON_CHARS ? `${json.slice(0, MAX_JSON_CHARS)}\n… (${json.length - MAX_JSON_CHARS} more characters)` : json}</code>
        </pre>
      </details>
    </section>
  );
}

