/**
 * What the pipeline knows of a page before it takes it apart: the type it reports, the type selection goes by, and the
 * modes that follow from them. Computed once from the parsed page (before cleaning: its JSON-LD and navigation are
 * still there) and handed to cleaning, selection and every pass, which read their modes from it instead of comparing
 * page types.
 */
import { bodyOf, type Document } from './dom.js';
import { productDescription } from './product-description.js';
import { guessPageType, type PageType } from './signals/page-type.js';
import { isReplyTreePage } from './signals/reply-tree.js';

export interface PageProfile {
  /** The page's address: links resolve against it, and a shop's item folder is read from it. */
  url: string;
  /** The type reported as `metadata.pageType`. */
  type: PageType;
  /** The type selection and the passes go by (see `guessPageType`; a story under a tree of replies is a forum). */
  selectAs: PageType;
  /** Selected as another type, the page reads like an article (see `guessPageType`). */
  proseLike: boolean;
  /** Selected as a forum thread: comment and reply names mark its posts, and the posts are the content. */
  forum: boolean;
  /**
   * A service page that does not read like an article: its blocks are named for what they show (promo, banner,
   * teaser), and those names make nothing of it chrome or boilerplate (an article's promos and teasers are).
   */
  landing: boolean;
  /**
   * Selected as an article: its pick extends to the run of same-template sections it belongs to (see `sectionRun`).
   * Other types widen by the size of their pick against the page, which the run would hide (measured: service pages
   * lose when it applies to them).
   */
  sectionRuns: boolean;
  /** A listing or a shop's category: its feed of cards is its content (see feed.ts). */
  feed: boolean;
  /** A product's description from its structured data, when its content is asked for. */
  description?: string;
}

/** Page types a discussion without forum markup is taken for: a story under its replies reads as one of these. */
const STORY_TYPES = new Set<PageType>(['article', 'service', 'listing']);

export interface ProfileOptions {
  /** The page type, when the caller knows it: nothing is guessed. */
  declared?: PageType;
  /** Read a product's description from its structured data (only needed for markdown and page_text). */
  description?: boolean;
}

/** The profile of the parsed (not yet cleaned) page `doc`, read at `url`. */
export function pageProfile(doc: Document, url: string, options: ProfileOptions = {}): PageProfile {
  const { declared } = options;
  const guess = declared ? { type: declared, selectAs: declared, proseLike: false } : guessPageType(doc, url);
  // A story under a tree of nested replies is a thread, whatever it declares (see isReplyTreePage). Not a product or a
  // category: their trees are customer reviews and questions beside what is sold.
  const selectAs = !declared && STORY_TYPES.has(guess.selectAs) && isReplyTreePage(bodyOf(doc)) ? 'forum' : guess.selectAs;
  const proseLike = selectAs === guess.selectAs ? guess.proseLike : guess.type !== selectAs;
  const description = selectAs === 'product' && options.description ? productDescription(doc) : undefined;
  return withModes({ url, type: guess.type, selectAs, proseLike, description });
}

/** The profile of a page of a known type, selected as that type (for callers and specs that have no page to read). */
export function profileOf(type: PageType, url = ''): PageProfile {
  return withModes({ url, type, selectAs: type, proseLike: false });
}

type Basics = Pick<PageProfile, 'url' | 'type' | 'selectAs' | 'proseLike' | 'description'>;

function withModes(p: Basics): PageProfile {
  return {
    ...p,
    forum: p.selectAs === 'forum',
    landing: p.selectAs === 'service' && !p.proseLike,
    sectionRuns: p.selectAs === 'article',
    feed: p.selectAs === 'listing' || p.selectAs === 'collection',
  };
}
