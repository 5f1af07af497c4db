/**
 * The Markdown step behind one small interface, with two implementations: mdream (Rust, fast; the default,
 * chosen by measurement — see bench/extraction) and turndown + GFM tables (the stack's original choice).
 * Both receive already-cleaned main-content HTML with absolute URLs; a shared post-pass tidies whitespace and
 * drops link/image spam that carries no text.
 */
import TurndownService from 'turndown';
import gfmPlugin from 'turndown-plugin-gfm';
import { mdreamEngine } from './mdream-engine.js';

export type MarkdownConverterName = 'mdream' | 'turndown';

export interface MarkdownConverter {
  readonly name: MarkdownConverterName;
  convert(html: string): string;
}

class MdreamConverter implements MarkdownConverter {
  readonly name = 'mdream' as const;
  convert(html: string): string {
    const { markdown } = mdreamEngine().convert(html, {
      cleanUrls: false,
      clean: { emptyLinks: true, emptyLinkText: true, blankLines: true, selfLinkHeadings: true, redundantLinks: true },
      plugins: {},
    });
    return tidyMarkdown(markdown);
  }
}

class TurndownConverter implements MarkdownConverter {
  readonly name = 'turndown' as const;
  private readonly service: TurndownService;
  constructor() {
    this.service = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
      emDelimiter: '*',
      strongDelimiter: '**',
      hr: '---',
    });
    this.service.use(gfmPlugin.gfm);
    // Input is cleaned already; these are belt and braces so no script text can leak into Markdown.
    this.service.remove(['script', 'style', 'noscript', 'template', 'iframe']);
  }
  convert(html: string): string {
    return tidyMarkdown(this.service.turndown(html));
  }
}

/** Remove empty links/images and excess blank lines; never touches fenced code blocks. */
export function tidyMarkdown(md: string): string {
  const parts = md.split(/(^```[^\n]*\n[\s\S]*?^```[ \t]*$)/m);
  for (let i = 0; i < parts.length; i += 2) {
    parts[i] = parts[i]
      .replace(/(?<!!)\[\s*\]\([^)]*\)/g, '') // [](url): a link with no text
      .replace(/!\[\]\(\s*\)/g, '')
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n');
  }
  return parts.join('').trim();
}

const instances = new Map<MarkdownConverterName, MarkdownConverter>();

export function markdownConverter(name: MarkdownConverterName = 'mdream'): MarkdownConverter {
  let c = instances.get(name);
  if (!c) {
    c = name === 'turndown' ? new TurndownConverter() : new MdreamConverter();
    instances.set(name, c);
  }
  return c;
}
