/** Small shared pieces: loading and error notes, a copy button. */
import { useState } from 'preact/hooks';
import { ApiError } from './api.js';

export const Loading = () => (
  <p class="muted" role="status">
    Loading…
  </p>
);

export function ErrorNote({ error }: { error: unknown }) {
  const message = error instanceof ApiError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setDone(true), () => setDone(false));
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

export function Snippet({ title, text }: { title: string; text: string }) {
  return (
    <div class="snippet">
      <div class="snippet-head">
        <span>{title}</span>
        <CopyButton text={text} label={`Copy ${title}`} />
      </div>
      <pre tabIndex={0} aria-label={title}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
