/**
 * The JSON value in a model's answer. Models asked for "only JSON" still wrap it in a ```json fence or a sentence
 * now and then: the fence is taken off, else the span from the first `{` or `[` to the last `}` or `]` is tried.
 */

export type ParsedAnswer = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJsonAnswer(text: string): ParsedAnswer {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?[ \t]*\n([^]*?)\n?```$/i.exec(trimmed);
  const candidates = [fenced ? fenced[1] : trimmed];
  const start = trimmed.search(/[{[]/);
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  if (start > 0 || (end >= 0 && end < trimmed.length - 1)) candidates.push(trimmed.slice(start, end + 1));
  let error = 'the answer is empty';
  for (const candidate of candidates) {
    if (!candidate.trim()) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (e) {
      error = `the answer is not valid JSON (${(e as Error).message.slice(0, 120)})`;
    }
  }
  return { ok: false, error };
}
