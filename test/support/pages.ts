/** Pages for the extraction specs: a document around a body, sentences and paragraphs that read as prose. */
import type { FormatOptions, OutputFormats } from '#extraction';

/** Markdown and page_text, the outputs main-content selection shapes. */
export const CONTENT_FORMATS: OutputFormats = { raw_html: false, enhanced_html: false, markdown: true, page_text: true };
export const pageOptions = (url = 'https://site.example/t/topic/1'): FormatOptions => ({ url, formats: CONTENT_FORMATS });
export const sentence = (i: number): string => `Sentence ${i} of a real post, with enough words, commas, and clauses to read like prose.`;
/** `n` paragraphs of two sentences each. */
export const prose = (n: number): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i)} ${sentence(i + 1)}</p>`).join('');
export const page = (body: string, head = '<title>T</title>'): string => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

/** page_text alone. */
export const TEXT_ONLY: OutputFormats = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
/** Five paragraphs of an article's body ("Paragraph 0 of the story, …"). */
export const STORY = Array.from({ length: 5 }, (_, i) => `<p>Paragraph ${i} of the story, with words, commas, and sentences enough to read like real prose in an article body.</p>`).join('');
