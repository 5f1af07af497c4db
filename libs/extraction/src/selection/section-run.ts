/**
 * A run of sibling sections built from one template. Page builders and component frameworks render a long article
 * or a service page as a series of blocks that share a tag and class (`section.BlogSection`, `div.feature-band`),
 * one per heading; the paragraph scoring picks the best of them and the siblings, which hold no single strong
 * paragraph, fall below the sibling threshold. When the pick sits inside such a block, the whole run is the content.
 * A run of teaser cards has the same shape, so the run must read as text: few links. Sections built from different
 * templates (a hero, a feature band, testimonials) make a run too when each has a heading of its own.
 */
import { findFirst, isTag, type Element } from '../dom.js';

export interface RunStats {
  /** characters of whitespace-collapsed text */
  text: number;
  /** of which inside links */
  link: number;
}

/** Levels above the pick searched for the block it belongs to. */
const MAX_LEVELS = 5;
/**
 * Levels above the pick searched for a section under a heading of its own: page builders nest a section's text in
 * more wrappers (a block group, its inner container, the block, its sections) than a template run's.
 */
const MAX_HEADED_LEVELS = 8;
/** Blocks of one template, the pick's included, from which they make a run. */
const MIN_RUN = 3;
/**
 * Sections under headings of their own, the pick's included, from which they make a run: more than a template run
 * needs, as an article's body comes with a few headed blocks beside it (testimonials, a sign-up band).
 */
const MIN_HEADED_RUN = 4;
/** Link share of the run's text above which it is a run of cards rather than of sections. */
const MAX_RUN_LINK_SHARE = 0.25;
/** Text of the run, as a multiple of the pick's block, from which the run adds to the pick. */
const MIN_GAIN = 1.5;
/** Text a block needs to count as a section of the run (not an empty spacer of the same template). */
const MIN_BLOCK_TEXT = 80;

/** The template of a block: its tag and class words, ignoring state modifiers and the numbers in names. */
function template(el: Element): string | undefined {
  const cls = (el.attribs.class ?? '')
    .split(/\s+/)
    .filter((w) => w && !/(?:^|[-_])(?:active|current|open|selected|first|last|odd|even|dark|light)(?:$|[-_])/i.test(w))
    // Numbered modifiers (section-1, section-2) are one template; hashed names (cdb42bcc) keep their shape.
    .map((w) => w.replace(/\d+/g, '#'))
    .sort()
    .join('.');
  if (!cls && el.name !== 'section') return undefined;
  return `${el.name}.${cls}`;
}

/** Whether `run`, which holds `block`, is a run of sections: enough of them, more text than `block`, few links. */
function reads(run: Element[], block: Element, statsOf: (el: Element) => RunStats, minRun = MIN_RUN): boolean {
  if (run.length < minRun) return false;
  const text = run.reduce((a, c) => a + statsOf(c).text, 0);
  const link = run.reduce((a, c) => a + statsOf(c).link, 0);
  return text >= MIN_GAIN * statsOf(block).text && link <= MAX_RUN_LINK_SHARE * text;
}

const SECTION_HEADING = (e: Element): boolean => e.name === 'h2' || e.name === 'h3' || e.name === 'h4';

/**
 * Sections of one page built from different templates (a hero, a feature band, testimonials): siblings of the pick's
 * block with the same tag, each under a heading of its own and holding some text. The block must have a heading too:
 * an article's body beside its headed asides (an author box, a newsletter form) is not one of several sections.
 */
function headedRun(block: Element, siblings: Element[], statsOf: (el: Element) => RunStats): Element[] | undefined {
  if (!findFirst(block, SECTION_HEADING)) return undefined;
  const run = siblings.filter((c) => c === block || (c.name === block.name && statsOf(c).text >= MIN_BLOCK_TEXT && findFirst(c, SECTION_HEADING) !== undefined));
  return reads(run, block, statsOf, MIN_HEADED_RUN) ? run : undefined;
}

/**
 * The blocks of the run that holds `top` (itself or one of its ancestors up to MAX_LEVELS), in document order, or
 * undefined when `top` is not part of such a run.
 */
export function sectionRun(top: Element, statsOf: (el: Element) => RunStats): Element[] | undefined {
  let block: Element = top;
  for (let level = 0; level <= MAX_HEADED_LEVELS; level++) {
    const parent = block.parent;
    if (!parent || !isTag(parent) || parent.name === 'html') return undefined;
    // Under <body> only sections under headings: a template's blocks there are as often the site's own bands.
    if (parent.name === 'body') return headedRun(block, parent.children.filter(isTag), statsOf);
    const sig = template(block);
    if (sig && level <= MAX_LEVELS) {
      const run = parent.children.filter((c): c is Element => isTag(c) && template(c) === sig && (c === block || statsOf(c).text >= MIN_BLOCK_TEXT));
      if (reads(run, block, statsOf)) return run;
    }
    const headed = headedRun(block, parent.children.filter(isTag), statsOf);
    if (headed) return headed;
    block = parent;
  }
  return undefined;
}
