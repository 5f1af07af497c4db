/**
 * Main-content detection on a cleaned document. Readability's paragraph scoring (text length, commas, link
 * density, class/id weights, propagated to ancestors) picks the article container and the siblings that belong
 * with it; semantic markers (itemprop=articleBody, <article>, entry-content…) are strong votes; then a
 * conditional prune drops link lists, share bars and widgets left inside the container.
 * Returns the nodes that make up the main content, in document order, or undefined when nothing qualifies.
 */
import { runPasses } from '../passes/index.js';
import type { PageProfile } from '../profile.js';
import { findLead } from './lead.js';
import { isPostAuthor, isPostByline, isPostOfRun } from '../signals/post-group.js';
import { sectionRun } from './section-run.js';
import { withFeed } from './feed.js';
import { isFaq } from '../signals/faq.js';
import { COMMENT_THREAD_RE, FORUM_POST_WORDS_ALL_RE, NEGATIVE_WEIGHT_RE, POSITIVE_WEIGHT_RE, STRONG_CONTENT_RE } from '../signals/vocabulary.js';
import { type Element, contains, findFirst, hasAncestor, isTag, isText, classAndId, HEADING_TAGS, namedBy, relink, type AnyNode, type ChildNode, type ParentNode } from '../dom.js';

interface Stats {
  /** characters of whitespace-collapsed text */
  text: number;
  /** characters inside <a> */
  link: number;
  commas: number;
}


const SCORE_TAGS = new Set(['p', 'pre', 'td', 'blockquote', 'section', 'h2', 'h3', 'h4', 'h5', 'h6']);
const DIV_LIKE = new Set(['div', 'section', 'article', 'main', 'span', 'font', 'center']);
const BLOCKISH = new Set([
  'p', 'div', 'section', 'article', 'main', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'figure', 'form', 'header', 'footer', 'aside', 'nav', 'address', 'hr', 'img', 'br',
]);
const INLINE_TAGS = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 's', 'span', 'font', 'small', 'big', 'sub', 'sup', 'abbr', 'cite', 'code', 'q', 'mark', 'time', 'label', 'tt', 'var', 'del', 'ins', 'kbd', 'samp', 'bdi', 'bdo', 'data', 'dfn', 'strike', 'nobr', 'wbr']);
const TABLE_PARTS = new Set(['tr', 'tbody', 'thead', 'tfoot']);
const COMMA_RE = /[,\u060C\uFE50\uFE10\uFE11\u2E41\u2E34\u2E32\uFF0C\u3001]/g;

function collapsedLength(s: string): number {
  let n = 0;
  let space = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ws = c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 160;
    if (ws) {
      if (!space) n++;
      space = true;
    } else {
      n++;
      space = false;
    }
  }
  return n;
}

function countCommas(s: string): number {
  const m = s.match(COMMA_RE);
  return m ? m.length : 0;
}

export class ContentScorer {
  private readonly stats = new Map<Element, Stats>();
  private readonly scores = new Map<Element, number>();

  /**
   * `skipComments`: paragraphs inside comment sections earn their ancestors nothing, so a long discussion cannot
   * outscore the article it discusses (a forum thread, where the posts are the content, is retried without it).
   */
  constructor(
    private readonly root: ParentNode,
    private readonly skipComments = false,
    /** A forum thread: comment and reply class names mark its posts, not boilerplate. */
    private readonly forum = false,
  ) {
    this.computeStats(root, false);
  }

  private computeStats(node: ParentNode, inLink: boolean): Stats {
    const s: Stats = { text: 0, link: 0, commas: 0 };
    for (const c of node.children) {
      if (isText(c)) {
        const len = collapsedLength(c.data);
        s.text += len;
        if (inLink) s.link += len;
        s.commas += countCommas(c.data);
      } else if (isTag(c)) {
        const cs = this.computeStats(c, inLink || c.name === 'a');
        s.text += cs.text;
        s.link += cs.link;
        s.commas += cs.commas;
      }
    }
    if (isTag(node as AnyNode)) this.stats.set(node as Element, s);
    return s;
  }

  statsOf(el: Element): Stats {
    return this.stats.get(el) ?? { text: 0, link: 0, commas: 0 };
  }

  linkDensity(el: Element): number {
    const s = this.statsOf(el);
    return s.text === 0 ? 0 : s.link / s.text;
  }

  static classWeight(el: Element, forum = false): number {
    const words = forum ? classAndId(el).replace(FORUM_POST_WORDS_ALL_RE, ' ') : classAndId(el);
    let w = 0;
    if (el.attribs.itemprop === 'articleBody') w += 50;
    if (!words) return w;
    if (STRONG_CONTENT_RE.test(words)) w += 50;
    else if (POSITIVE_WEIGHT_RE.test(words)) w += 25;
    if (NEGATIVE_WEIGHT_RE.test(words)) w -= 25;
    return w;
  }

  /** A div whose children are all inline behaves like a paragraph. */
  private isParagraphLike(el: Element): boolean {
    if (SCORE_TAGS.has(el.name)) return el.name !== 'section' || !this.hasBlockChild(el);
    // A list item is a paragraph when it reads like one; short items (menus, archives, link lists) earn nothing.
    if (el.name === 'li') return !this.hasBlockChild(el) && this.statsOf(el).text >= LONG_ITEM;
    if (!DIV_LIKE.has(el.name)) return false;
    return !this.hasBlockChild(el);
  }

  private hasBlockChild(el: Element): boolean {
    for (const c of el.children) if (isTag(c) && BLOCKISH.has(c.name) && c.name !== 'br' && c.name !== 'img') return true;
    return false;
  }

  private initialScore(el: Element): number {
    let base: number;
    switch (el.name) {
      case 'div': case 'article': case 'main': base = 5; break;
      case 'pre': case 'td': case 'blockquote': base = 3; break;
      case 'address': case 'ol': case 'ul': case 'dl': case 'dd': case 'dt': case 'li': case 'form': base = -3; break;
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': case 'th': base = -5; break;
      default: base = 0;
    }
    return base + ContentScorer.classWeight(el, this.forum);
  }

  private addScore(el: Element, value: number): void {
    const cur = this.scores.get(el);
    this.scores.set(el, (cur ?? this.initialScore(el)) + value);
  }

  /** Credit a paragraph of `text` chars with `commas` commas to the ancestors starting at `from`. */
  private credit(from: ParentNode | null, text: number, commas: number): void {
    if (text < 25) return;
    const score = 1 + commas + Math.min(Math.floor(text / 100), 3);
    let level = 0;
    for (let p = from; p && isTag(p) && level < 5; p = p.parent, level++) {
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      this.addScore(p, score / divider);
    }
  }

  private scoreParagraphs(node: ParentNode): void {
    // Loose text directly inside a container (text nodes and inline elements between blocks) counts as a paragraph
    // of that container, as Readability does by wrapping such runs in <p>.
    let looseText = 0;
    let looseCommas = 0;
    const flushLoose = (): void => {
      if (isTag(node as AnyNode)) this.credit(node, looseText, looseCommas);
      looseText = 0;
      looseCommas = 0;
    };
    for (const c of node.children) {
      if (isText(c)) {
        looseText += collapsedLength(c.data);
        looseCommas += countCommas(c.data);
        continue;
      }
      if (!isTag(c)) continue;
      if (INLINE_TAGS.has(c.name) && !this.hasBlockChild(c)) {
        const s = this.statsOf(c);
        looseText += s.text;
        looseCommas += s.commas;
        continue;
      }
      if (c.name === 'br' || c.name === 'img') continue;
      flushLoose();
      if (this.skipComments && isCommentSection(c)) continue;
      if (this.isParagraphLike(c)) {
        const s = this.statsOf(c);
        this.credit(c.parent, s.text, s.commas);
        if (c.name === 'li' || c.name === 'td' || c.name === 'blockquote' || c.name === 'section') this.scoreParagraphs(c);
      } else if (c.name !== 'li' || this.hasBlockChild(c)) {
        this.scoreParagraphs(c);
      }
    }
    if (!this.isParagraphLikeNode(node)) flushLoose();
  }

  private isParagraphLikeNode(node: ParentNode): boolean {
    return isTag(node as AnyNode) && this.isParagraphLike(node as Element);
  }

  private finalScore(el: Element): number {
    return (this.scores.get(el) ?? 0) * (1 - this.linkDensity(el));
  }

  /**
   * Ranking score for the top candidate: a short block (a headline wrapper whose class says "content", a modal
   * holding a results table) cannot be the article however good its class name, so the score is damped below
   * ~1000 characters of text.
   */
  private pickScore(el: Element): number {
    const text = this.statsOf(el).text;
    return this.finalScore(el) * Math.sqrt(Math.min(1, text / PICK_FULL_TEXT));
  }

  /** Pick the main-content nodes; `sectionRuns`: take the run of sections the pick belongs to (see `sectionRun`). */
  select(sectionRuns = false): Element[] | undefined {
    this.scoreParagraphs(this.root);
    const candidates = [...this.scores.keys()].filter((e) => e.name !== 'html');
    if (candidates.length === 0) return undefined;
    candidates.sort((a, b) => this.pickScore(b) - this.pickScore(a));
    let top = candidates[0];
    // Rows of a table are parts of the table: a layout table's row is not a block of its own.
    while (TABLE_PARTS.has(top.name) && top.parent && isTag(top.parent)) top = top.parent;
    const topScore = this.finalScore(top);

    // Several strong candidates under one ancestor: the article is split into blocks — take the common ancestor.
    // (ancestors and descendants of the top candidate are the same block, not another part of the article)
    const alternatives = candidates
      .slice(1, 8)
      .filter((c) => this.finalScore(c) >= topScore * 0.75 && !contains(c, top) && !contains(top, c))
      .slice(0, 5);
    if (alternatives.length >= 2) {
      for (let p = top.parent; p && isTag(p) && p.name !== 'body'; p = p.parent) {
        const containing = alternatives.filter((a) => contains(p, a)).length;
        if (containing >= 2) {
          top = p;
          break;
        }
      }
    }
    // Climb while the parent scores better (the top candidate was one block of a larger article).
    let lastScore = this.finalScore(top);
    const threshold = lastScore / 3;
    for (let p = top.parent; p && isTag(p) && p.name !== 'body'; p = p.parent) {
      if (!this.scores.has(p)) continue;
      const ps = this.finalScore(p);
      if (ps < threshold) break;
      if (ps > lastScore) {
        top = p;
        break;
      }
      lastScore = ps;
    }
    // Only child: its parent frames the same content.
    while (top.parent && isTag(top.parent) && top.parent.name !== 'body' && top.parent.children.filter(isTag).length === 1) {
      top = top.parent;
    }

    // Semantic container: prefer an explicit article body that holds most of the scored text.
    const semantic = this.semanticContainer(top);
    if (semantic) top = semantic;
    const picked = this.withSiblings(top);
    // One block of a run of sections built from one template: the run, with what the pick took beside it.
    const run = sectionRuns ? sectionRun(top, (e) => this.statsOf(e)) : undefined;
    if (!run) return picked;
    const beside = picked.filter((n) => !run.some((r) => contains(r, n)));
    const siblings = run[0].parent?.children ?? [];
    return [...run, ...beside].sort((a, b) => siblings.indexOf(a) - siblings.indexOf(b));
  }

  private semanticContainer(top: Element): Element | undefined {
    const topText = this.statsOf(top).text;
    let best: Element | undefined;
    let bestText = 0;
    for (const [el, s] of this.stats) {
      const strong = el.attribs.itemprop === 'articleBody' || STRONG_CONTENT_RE.test(classAndId(el));
      if (!strong) continue;
      if (s.text > bestText && this.linkDensity(el) < 0.4) {
        best = el;
        bestText = s.text;
      }
    }
    if (!best) return undefined;
    // Inside the chosen top, or a superset of it — either way it must carry most of the text.
    if (contains(best, top) && bestText <= topText * 1.6) return best;
    if (contains(top, best) && bestText >= topText * 0.6) return best;
    if (!contains(top, best) && !contains(best, top) && bestText >= topText * 0.8) return best;
    return undefined;
  }

  private withSiblings(top: Element): Element[] {
    const parent = top.parent;
    if (!parent || !isTag(parent)) return [top];
    const topScore = this.finalScore(top);
    const threshold = Math.max(10, topScore * 0.2);
    const topClass = top.attribs.class ?? '';
    const out: Element[] = [];
    const tags = parent.children.filter(isTag);
    const at = tags.indexOf(top);
    const adjacent = new Set([tags[at - 1]]);
    for (const sib of parent.children) {
      if (!isTag(sib)) continue;
      if (sib === top) {
        out.push(sib);
        continue;
      }
      // The block right before or after the article (its standfirst, a closing section) when it reads as prose.
      if (adjacent.has(sib) && this.readsAsProse(sib)) {
        out.push(sib);
        continue;
      }
      let bonus = 0;
      if (topClass && sib.attribs.class === topClass) bonus += topScore * 0.2;
      if (this.scores.has(sib) && this.finalScore(sib) + bonus >= threshold) {
        out.push(sib);
        continue;
      }
      if (sib.name === 'p') {
        const s = this.statsOf(sib);
        const ld = this.linkDensity(sib);
        if ((s.text > 80 && ld < 0.25) || (s.text > 0 && s.text <= 80 && ld === 0 && /\.( |$)/.test(textOf(sib)))) out.push(sib);
      }
    }
    return out;
  }

  /**
   * Text with sentences and few links, not a heading-only or link block. A block holding the page's <h1> is the
   * article's title block (headline and lead, as a reference page prints its introduction above its sections): no
   * length makes it something else.
   */
  private readsAsProse(el: Element): boolean {
    const s = this.statsOf(el);
    if (s.text < ADJACENT_MIN_TEXT || this.linkDensity(el) > 0.2) return false;
    if (s.text > ADJACENT_MAX_TEXT && !findFirst(el, (e) => e.name === 'h1')) return false;
    if (HEADING_TAGS.has(el.name) || ContentScorer.classWeight(el, this.forum) < 0) return false;
    return /[.!?…]["'»”)]?(?:\s|$)/.test(textOf(el));
  }

  /**
   * Readability's conditional cleaning, run on the selected content. `landing`: the content is a service page's, whose
   * blocks are named for what they show (`promo`, `teaser`, `banner`, `media`, `contact`): their names prune nothing.
   */
  prune(nodes: Element[], keep?: Element, landing = false): void {
    this.contentText = nodes.reduce((a, n) => a + this.statsOf(n).text, 0);
    this.keep = keep;
    this.landing = landing;
    // An FAQ inside the content is kept whole (see pruneChildren); a pick that is itself an FAQ is pruned as usual.
    for (const n of nodes) this.pruneChildren(n, !isFaq(n) && !hasAncestor(n, isFaq));
  }

  /** A block left as it is (a listing's feed of cards, whose cards are links). */
  private keep: Element | undefined;

  /** The content is a landing page's: negative class words do not prune a block (see `prune`). */
  private landing = false;

  /** Text length of the selected content: a block holding most of it is the article itself, never pruned. */
  private contentText = 0;

  /**
   * Prune the blocks under `node`. `findFaq`: an FAQ block found below (see `isFaq`) is left whole: its questions are
   * short, often links or toggles, and its answers link to what they explain, so its entries read as link blocks and
   * widgets, but a page's FAQ is its content.
   */
  private pruneChildren(node: Element, findFaq: boolean): void {
    if (node === this.keep) return;
    let changed = false;
    const kept: ChildNode[] = [];
    for (const c of node.children) {
      if (!isTag(c)) {
        kept.push(c);
        continue;
      }
      if (findFaq && isFaq(c)) {
        kept.push(c);
        continue;
      }
      if (c !== this.keep && this.shouldPrune(c)) {
        changed = true;
        continue;
      }
      this.pruneChildren(c, findFaq);
      kept.push(c);
    }
    if (changed) relink(node, kept);
  }

  /**
   * Cards each wrapped whole in their link (a heading and its description inside one `<a>`): a landing page's grid of
   * offers, whose text is link text only because the whole card is clickable. At least two such cards, holding most of
   * the block's link text.
   */
  private holdsLinkedCards(el: Element): boolean {
    // Inside such a card, its parts (the heading, the blurb) are all link text too.
    for (let p = el.parent; p && isTag(p); p = p.parent) if (p.name === 'a') return this.isLinkedCard(p);
    let cardText = 0;
    const walk = (n: Element): void => {
      for (const c of n.children) {
        if (!isTag(c)) continue;
        if (c.name !== 'a') walk(c);
        else if (this.isLinkedCard(c)) cardText += this.statsOf(c).text;
      }
    };
    walk(el);
    return cardText > 0 && cardText >= 0.5 * this.statsOf(el).link;
  }

  /** A block whose text is mostly one data table's (see isDataTable), which pruning leaves whole. */
  private wrapsDataTable(el: Element): boolean {
    const table = findFirst(el, (e) => e.name === 'table');
    return table !== undefined && this.statsOf(table).text >= DATA_TABLE_SHARE * this.statsOf(el).text && isDataTable(table);
  }

  /** A link that holds a heading and a description beside it. */
  private isLinkedCard(a: Element): boolean {
    const heading = findFirst(a, (e) => HEADING_TAGS.has(e.name));
    return heading !== undefined && this.statsOf(a).text - this.statsOf(heading).text >= LINKED_CARD_BLURB;
  }

  /**
   * A post of the thread, or the block that holds a post's text, however deep in the post's template it sits
   * (`article.message > div.message-inner > div.message-cell--main > … > div.bbWrapper`): at each level up to the
   * post, what lies beside it is a small share of the post or no more than a byline (the poster's panel, the date).
   */
  private isPost(el: Element): boolean {
    if (this.postOfRun(el)) return true;
    const text = this.statsOf(el).text;
    let p = el.parent;
    for (let level = 0; level < POST_BODY_LEVELS && p && isTag(p); level++, p = p.parent) {
      const post = this.statsOf(p).text;
      if (text < POST_BODY_SHARE * post && (post - text > MAX_POST_BYLINE || text < MIN_POST_BODY_SHARE * post)) return false;
      if (this.postOfRun(p)) return true;
    }
    return false;
  }

  /** isPostOfRun, once per element: pruning asks it of every ancestor of every block it weighs. */
  private readonly runs = new Map<Element, boolean>();
  private readonly postOfRun = (el: Element): boolean => {
    let run = this.runs.get(el);
    if (run === undefined) {
      run = isPostOfRun(el);
      this.runs.set(el, run);
    }
    return run;
  };

  private shouldPrune(el: Element): boolean {
    const name = el.name;
    if (this.forum && this.isPost(el)) return false;
    // Who wrote a post and when is part of it: a short, link-heavy line inside the post, or the poster's panel.
    if (this.forum && this.statsOf(el).text <= MAX_POST_BYLINE && (isPostByline(el, textOf(el), this.postOfRun) || isPostAuthor(el, this.postOfRun))) return false;
    const weight = ContentScorer.classWeight(el, this.forum);
    const s = this.statsOf(el);
    if (HEADING_TAGS.has(name)) return weight < 0 || (s.text > 0 && this.linkDensity(el) > 0.6 && s.text < 80 && !linksToItself(el));
    if (name === 'p') return weight < 0 && s.text < 200;
    if (!['div', 'section', 'ul', 'ol', 'table', 'form', 'aside', 'header', 'footer', 'figure', 'dl'].includes(name)) {
      return false;
    }
    if (weight < 0 && (this.scores.get(el) ?? 0) + weight < 0 && s.text < 1000 && !this.landing) return true;
    if (s.text > this.contentText * 0.4) return false;
    if (name === 'table' && isDataTable(el)) return false;
    if (name === 'figure') return false;
    if (isAdmonition(el)) return false;
    if (s.commas >= 10) return false;
    const ld = this.linkDensity(el);
    const isList = name === 'ul' || name === 'ol' || name === 'dl';
    const counts = countTags(el);
    const p = counts.p;
    const img = counts.img;
    const li = counts.li - 100;
    // A gallery is images with captions; a post with its attached photos is text (forum posts write no <p>).
    if (img > 1 && p / img < 0.5 && !hasAncestorTag(el, 'figure') && !(this.forum && s.text >= POST_WITH_IMAGES_TEXT)) return true;
    if (!isList && li > p && s.text < 400) return true;
    if (counts.input > Math.floor(p / 3)) return true;
    if (!isList && s.text < 25 && (img === 0 || img > 2) && counts.heading === 0 && !hasAncestorTag(el, 'figure')) return true;
    // A service page's cards are often links whole: their text is the page's offers, not a block of links.
    if (this.landing && !isList && ld > 0.2 && this.holdsLinkedCards(el)) return false;
    // A service page's section of feature cards, each under its own heading with a line of plain text, links a few
    // roles or details from each card: mostly plain text under headings is a section, not a link block.
    if (this.landing && !isList && ld <= FEATURE_SECTION_LINK_SHARE && counts.heading >= 2) return false;
    // The wrapper of a data table is the table (a comparison of plans whose rows link to what each feature is).
    if (ld > 0.2 && this.wrapsDataTable(el)) return false;
    if (weight < 25 && ld > 0.2 && !isList && s.text < 2000) return true;
    if (isList && ld > 0.5) return true;
    if (weight >= 25 && ld > 0.5) return true;
    return false;
  }
}

/**
 * Link share of a service page's block of headed cards up to which it is a section rather than a link block. Kept low:
 * a pick that keeps more of its link-heavy blocks grows past the share from which the page widens to its whole region
 * (measured: at 0.5 a page lost its hero and closing sections that way).
 */
const FEATURE_SECTION_LINK_SHARE = 0.3;

/** Share of a block's text a data table holds from which the block is that table's wrapper. */
const DATA_TABLE_SHARE = 0.5;

/** Characters of a linked card's text besides its heading from which it carries a description. */
const LINKED_CARD_BLURB = 40;

/** Text range of an adjacent block taken with the article when it reads as prose (no upper bound on a title block). */
const ADJACENT_MIN_TEXT = 80;
const ADJACENT_MAX_TEXT = 1500;

/** Characters of text from which a forum block holding images is a post with attachments, not a gallery. */
const POST_WITH_IMAGES_TEXT = 500;

/** Levels above a block searched for the post whose text it holds (see isPost). */
const POST_BODY_LEVELS = 8;
/** Share of a post's text a block holds from which it is the post's body. */
const POST_BODY_SHARE = 0.8;
/** Share of a post's text the body of a short post holds at least, beside a byline (see isPost). */
const MIN_POST_BODY_SHARE = 0.5;

/** Characters of a post's byline (the poster's name and the date), at most. */
const MAX_POST_BYLINE = 150;

/** Characters from which a list item counts as a paragraph. */
const LONG_ITEM = 100;

/** Text length from which a candidate's score counts in full when picking the top one. */
const PICK_FULL_TEXT = 1000;


/** A comment section or a single comment, by its class/id. */
export function isCommentSection(el: Element): boolean {
  const words = classAndId(el);
  return words !== '' && COMMENT_THREAD_RE.test(words);
}

/**
 * A note, tip or warning set in the body of a docs page (Sphinx and MkDocs `admonition`, MDN `notecard`, a wiki's
 * `template-box-tip`): prose the author wrote for the page, whose links point to what it mentions, not navigation.
 */
const ADMONITION_WORDS: ReadonlySet<string> = new Set(['admonition', 'notecard', 'note', 'tip', 'warning', 'caution', 'important', 'hint', 'callout']);
const isAdmonition = (el: Element): boolean => namedBy(el, ADMONITION_WORDS);

/**
 * A heading whose link is its own permalink (`<h2 id="examples"><a href="#examples">Examples</a></h2>`: docs make the
 * heading's text the link to itself) is a heading, not a link to elsewhere. A link to another place in the page (a
 * post's title linking to the post) is not its own.
 */
function linksToItself(el: Element): boolean {
  const ids = new Set([el.attribs.id, el.parent && isTag(el.parent) ? el.parent.attribs.id : undefined].filter((id): id is string => !!id));
  if (ids.size === 0) return false;
  let links = 0;
  const walk = (n: Element): boolean => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (c.name === 'a') {
        links++;
        if (!ids.has((c.attribs.href ?? '').slice(1)) || !(c.attribs.href ?? '').startsWith('#')) return false;
      } else if (!walk(c)) return false;
    }
    return true;
  };
  return walk(el) && links > 0;
}

function hasAncestorTag(el: Element, tag: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && p.name === tag) return true;
  return false;
}

function textOf(el: AnyNode): string {
  if (isText(el)) return el.data;
  if (!isTag(el)) return '';
  let s = '';
  for (const c of el.children) s += textOf(c);
  return s;
}

function countTags(el: Element): { p: number; img: number; li: number; input: number; heading: number } {
  const out = { p: 0, img: 0, li: 0, input: 0, heading: 0 };
  const walk = (n: Element): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (c.name === 'p') out.p++;
      else if (c.name === 'img') out.img++;
      else if (c.name === 'li') out.li++;
      else if (c.name === 'input') out.input++;
      else if (HEADING_TAGS.has(c.name)) out.heading++;
      walk(c);
    }
  };
  walk(el);
  return out;
}

/** A table with header cells, a caption or several rows and columns holds data rather than layout. */
export function isDataTable(table: Element): boolean {
  if (table.attribs.role === 'presentation') return false;
  let rows = 0;
  let maxCols = 0;
  let hasTh = false;
  let nested = false;
  const walk = (n: Element, depth: number): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (c.name === 'table' && depth > 0) nested = true;
      if (c.name === 'caption' || c.name === 'th' || c.name === 'thead') hasTh = true;
      if (c.name === 'tr') {
        rows++;
        maxCols = Math.max(maxCols, c.children.filter((x) => isTag(x) && (x.name === 'td' || x.name === 'th')).length);
      }
      if (c.name !== 'table') walk(c, depth + 1);
      else nested = true;
    }
  };
  walk(table, 0);
  if (nested) return false;
  if (hasTh) return true;
  return rows >= 3 && maxCols >= 2;
}

/** Below this much text once comment sections are ignored, the page is taken to be a discussion thread. */
const MIN_WITHOUT_COMMENTS = 500;

/**
 * What selection does with the page's feed of cards (see feed.ts): `add` it to the pick, or only `keep` it unpruned when
 * the pick holds it.
 */
export type FeedMode = 'add' | 'keep';

/**
 * Select and prune the main content of `root` (normally the cleaned <body>) as `profile` says: a forum's posts, an
 * article's run of sections, a landing page's blocks pruned without regard to their class words (see
 * ContentScorer.prune); then the passes of the `pick` stage. `feed`: what to do with a listing's feed of cards.
 */
export function extractMainContent(root: ParentNode, profile: PageProfile, feed?: FeedMode): Element[] | undefined {
  const { forum, sectionRuns } = profile;
  // On a forum thread the posts are the content: comment sections are scored like any other block.
  let scorer = new ContentScorer(root, !forum, forum);
  let nodes = scorer.select(sectionRuns);
  if (!nodes || nodes.reduce((a, n) => a + scorer.statsOf(n).text, 0) < MIN_WITHOUT_COMMENTS) {
    scorer = new ContentScorer(root, false, forum);
    nodes = scorer.select(sectionRuns);
  }
  if (!nodes) return undefined;
  const lead = findLead(nodes);
  if (lead) nodes.unshift(lead);
  const withRun = feed ? withFeed(root, nodes) : undefined;
  if (withRun && feed === 'add') nodes = withRun.nodes;
  scorer.prune(nodes, withRun?.feed, profile.landing);
  runPasses('pick', { roots: nodes, profile });
  return nodes;
}
