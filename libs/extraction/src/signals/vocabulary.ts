/**
 * The class-word vocabulary: the words of class and id names that say what a block is (the article's body, content,
 * chrome, junk, comments, posts, prices), shared by cleaning, scoring, the passes and page typing. The expressions are
 * tested on `classAndId(el)` (class and id joined by a space) and match whole words between spaces, `-` and `_`; the
 * sets are matched against the words of each name (see `classWords`). Where two steps use different lists for one
 * idea, both are here under names that say where each applies: each list was measured on its own step, and merging
 * them would change what that step keeps. A word list only one pass reads stays beside that pass.
 */

/** One of `words` as a whole word of a class/id string. */
function wordsRe(words: readonly string[], flags = ''): RegExp {
  return new RegExp(`(?:^|[\\s_-])(?:${words.join('|')})(?=$|[\\s_-])`, flags);
}

// ---- the article's body and content

/** Names of an article's body container (`articleBody`, a CMS's `entry-content`). */
const BODY_WORDS = ['articlebody', 'article[-_]*body', 'article[-_]*content', 'entry[-_]*content', 'post[-_]*content', 'post[-_]*body', 'story[-_]*body', 'main[-_]*content'];

/** Cleaning: a node so named that holds much text protects its ancestors from class words. */
export const PROTECTED_BODY_RE = wordsRe(BODY_WORDS);

/**
 * Scoring: a strong vote for the container (and the semantic container preferred to the top candidate). More
 * spellings than cleaning protects (`article-text`, `body-text`, `content-body`).
 */
export const STRONG_CONTENT_RE = wordsRe([...BODY_WORDS, 'article[-_]*text', 'story[-_]*content', 'body[-_]*text', 'content[-_]*body']);

/**
 * Inner boilerplate: a name token that holds a body word anywhere (`td-post-content`, `c-article-body__inner`), which
 * wins over the junk words in the same token.
 */
export const BODY_TOKEN_RE = /(?:articlebody|article-body|article__body|article-content|entry-content|post-content|post-body|story-body|main-content|body-text)/;

/**
 * Cleaning: a content word beside a chrome or junk word spares the node (Readability's okMaybeItsACandidate).
 */
export const MAYBE_CONTENT_RE = /(?:^|[\s_-])(?:article|articlebody|article[-_]*body|body|content|entry|entry[-_]*content|main|post|post[-_]*body|post[-_]*content|story|story[-_]*body|text|blog|column|prose|markdown[-_]*body)(?=$|[\s_-])/;

/** Scoring: Readability's positive class weight (with microformats' `hentry`, and `page`). */
export const POSITIVE_WEIGHT_RE =
  /(?:^|[\s_-])(?:article|articlebody|article[-_]*body|body|content|entry|entry[-_]*content|hentry|h-entry|main|page|pagination|post|post[-_]*body|post[-_]*content|text|blog|story|story[-_]*body|prose|rich[-_]*text)(?=$|[\s_-])/;

/** Scoring: Readability's negative class weight. */
export const NEGATIVE_WEIGHT_RE =
  /(?:^|[\s_-])(?:hidden|banner|combx|comment|comments|com-|contact|foot|footer|footnote|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|sharing|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget|byline|author|dateline|date|timestamp|caption|credit|newsletter|subscribe|social|breadcrumb|breadcrumbs|nav|menu|recommend|recommended|trending|popular|teaser|ad|ads|advert)(?=$|[\s_-])/;

// ---- comments and posts

/** Cleaning's comment words: a thread's comments, Disqus, WordPress's `respond` form. Also chrome words (CHROME_RE). */
const COMMENT_CHROME_WORDS = ['comments?', 'comment[-_]*list', 'disqus', 'respond', 'replies'];
/** Cleaning: comment threads are prose too, but never the article; on a forum the posts carry these names. */
export const COMMENT_CHROME_RE = wordsRe(COMMENT_CHROME_WORDS);
export const COMMENT_CHROME_ALL_RE = wordsRe(COMMENT_CHROME_WORDS, 'g');

/** Scoring: the container of a comment thread or one comment, whose paragraphs earn the article nothing. */
export const COMMENT_THREAD_RE = /(?:^|[\s_-])(?:comments?|commentlist|comment[-_]list|comments[-_](?:area|list|section|wrapper|container)|disqus[-_]thread|dsq[-_]comments|respond)(?=$|[\s_-])/;

/** Scoring on a forum: comment and reply names mark its posts, and bylines and dates belong to them (not weighed). */
export const FORUM_POST_WORDS_ALL_RE = /(?:^|[\s_-])(?:comments?|replies|reply|meta|author|byline|date|dateline|timestamp)(?=$|[\s_-])/g;

/** Inner boilerplate: whole comment words, which on a forum name the posts written in paragraphs. */
export const COMMENT_WORDS: ReadonlySet<string> = new Set(['comment', 'comments', 'commentlist', 'respond', 'reply', 'replies']);

/** Inner boilerplate on a forum: who wrote each post and when is part of the post. */
export const POST_BYLINE_WORDS: ReadonlySet<string> = new Set(['author', 'authors', 'byline', 'bylines', 'date', 'timestamp', 'meta', 'metadata', 'postmeta', 'postmetadata', 'posted', 'published']);

/** Page typing: the class of a post, a message, a reply, a comment or an answer (whole words, camelCase too). */
export const POST_CLASS_RE = /(?:^|[\s_-]|[a-z](?=[A-Z]))(?:[Pp]ost|[Mm]essage|[Rr]eply|[Cc]omment|[Aa]nswer|[Qq]uestion|[Pp]ostbit|[Mm]essagelist|[Tt]opic)(?=$|[\s_-]|[A-Z])/;

/** A thread's Markdown: the block a post starts at (numbered names too: `post-12`, `reply3`). */
export const POST_BLOCK_RE = /(?:^|[\s_-])(?:post|message|reply|comment|answer|question|postbit|topic-post|crawler-post|entry)(?=$|[\s_-]|\d)/i;

/** Reply trees: the blocks a tree of replies nests (any part of the class). */
export const REPLY_CLASS_RE = /comment|repl(?:y|ies)|post|message|thread/i;

/** A post's byline: the poster's name. */
export const POSTER_NAME_RE = /(?:^|[\s_-])(?:username|user-?name|author|poster|post-?author)(?=$|[\s_-])/i;

/** A thread's Markdown: the poster's name, as more engines spell it (`nickname`, `display-name`, `user`). */
export const POST_AUTHOR_RE = /(?:^|[\s_-])(?:author|username|user-name|poster|postauthor|creator|nickname|display-name|displayname|user)(?=$|[\s_-])/i;

// ---- chrome and junk

/** Ads by their slots' names. */
const AD_WORDS = ['ads?', 'advert', 'advertisement', 'advertising', 'adverts', 'adslot', 'ad[-_]*slot', 'ad[-_]*unit', 'ad[-_]*container', 'ad[-_]*wrapper'];
/** Cleaning: the ad words of a name, taken out of it to see whether anything else makes it junk. */
export const AD_WORDS_ALL_RE = wordsRe(AD_WORDS, 'g');

/**
 * Cleaning: consent banners, ads, trackers and popups, removed in either cleaning mode. `nocontent` is the class a
 * site gives what search engines should not index as its content (Google's convention: sidebars, page footers with
 * the licence line, "was this helpful" boxes).
 */
export const JUNK_RE = wordsRe([
  'cookies?', 'cookie[-_]*(?:banner|notice|consent|bar|law)', 'consent', 'gdpr', 'cmp', 'onetrust', 'didomi', 'cookiebot', 'qc-cmp2?', 'truste', 'usercentrics',
  'adsbygoogle', ...AD_WORDS, 'dfp', 'doubleclick', 'taboola', 'outbrain', 'sponsored', 'promoted', 'newsletter[-_]*signup', 'paywall', 'piano', 'tp-modal',
  'modal', 'popup', 'overlay', 'skip[-_]*link', 'sr-?only', 'visually[-_]*hidden', 'screen[-_]*reader[-_]*text', 'nocontent',
]);

/**
 * Cleaning: containers of consent-management platforms, by the vendor's own names. Unlike the generic words of
 * JUNK_RE they never name a page wrapper.
 */
export const CONSENT_VENDOR_RE = wordsRe(['onetrust', 'cybotcookiebotdialog', 'cookiebot', 'didomi', 'usercentrics', 'qc-cmp2?', 'truste', 'trustarc', 'cookieyes', 'osano', 'iubenda', 'sp_message']);

/** The names of a table of contents: chrome, except a chapter page's own (see drop-rules.ts `isChapterContents`). */
const CONTENTS_WORDS = ['toc', 'table[-_]*of[-_]*contents'];
export const CONTENTS_RE = wordsRe(CONTENTS_WORDS);

/**
 * Cleaning: page chrome and side material, removed in aggressive mode unless the node looks like content. `extra`
 * names a side column (`#extra`), not a size or a spacing (`dek--extra-spacing`, `title--extra-large`).
 */
export const CHROME_RE = wordsRe([
  'nav', 'navbar', 'navigation', 'menu', 'menus', 'breadcrumbs?', 'sidebar', 'side[-_]*bar', 'sidebars', 'widget', 'widgets', 'masthead', 'site[-_]*header',
  'site[-_]*footer', 'page[-_]*footer', 'global[-_]*footer', 'footer', 'header', 'topbar', 'toolbar', 'share', 'sharing', 'social', 'socials',
  'share[-_]*buttons', 'sharebar', 'related', 'related[-_]*posts', 'recommended', 'recirc', 'more[-_]*stories', 'trending', 'popular', 'most[-_]*read',
  ...COMMENT_CHROME_WORDS, 'newsletter', 'subscribe', 'subscription', 'signup', 'promo', 'teaser[-_]*list', 'pagination', 'pager', 'tags', 'tag[-_]*list',
  'tagcloud', 'author[-_]*box', 'author[-_]*bio', 'byline[-_]*social', 'skyscraper', 'banner', 'login', 'signin', 'search', 'searchform', 'jump[-_]*link',
  ...CONTENTS_WORDS, 'rss', 'community', 'shoutbox', 'extra(?![-_](?:small|large|spacing|space|padding|margin|bold|light|wide|narrow|tall|short|big))',
  'supplemental', 'outbrain', 'zergnet', 'read[-_]*more', 'readmore', 'more[-_]*from', 'you[-_]*may[-_]*like', 'also[-_]*read', 'follow', 'follow[-_]*us',
]);

/** Inner boilerplate: whole words of names that mark boilerplate inside article containers. */
export const JUNK_WORDS: ReadonlySet<string> = new Set([
  ...COMMENT_WORDS, 'disqus',
  // sharing, likes, ratings
  'share', 'shares', 'sharing', 'sharedaddy', 'shariff', 'social', 'sociable', 'rating', 'ratings', 'likes', 'like',
  // related / recommended / navigation between posts
  'related', 'relatedposts', 'recommended', 'recommendations', 'recirc', 'breadcrumb', 'breadcrumbs', 'pagination', 'pager', 'nav', 'navigation',
  // bylines, dates, meta lines, author boxes
  'byline', 'bylines', 'author', 'authors', 'timestamp', 'date', 'datum', 'published', 'posted', 'meta', 'metadata', 'postmeta', 'postmetadata', 'entrymeta', 'infoline',
  // tags and categories
  'tags', 'tag', 'taglist', 'tagcloud', 'categories', 'cats',
  // media credits
  'credit', 'credits', 'copyright', 'caption', 'captions',
  // newsletters, subscriptions, promos, ads
  'newsletter', 'subscribe', 'subscription', 'signup', 'promo', 'advert', 'advertisement', 'ad', 'ads', 'sponsor', 'sponsored', 'affiliate', 'paywall',
  // page furniture
  'footer', 'sidebar', 'toolbar', 'button', 'buttons', 'btn', 'popup', 'modal', 'login', 'signin',
  // forum signatures: the poster's standing footer under every post, not the post
  'signature', 'signatures', 'signaturecontainer', 'postsignature',
]);

// ---- a landing page's own blocks (see PageProfile.landing)

/**
 * Cleaning: chrome words that on a service page name its own sections: a landing page is built of promos and banners
 * (its offers, a closing call to action), where a news page's are the site's house ads.
 */
export const LANDING_CHROME_ALL_RE = wordsRe(['promo', 'banner'], 'g');

/**
 * Inner boilerplate: junk words that name a service page's own blocks: a promo is one of its offers, not a house ad
 * beside an article; and a landing page has no byline, so an author is whom a testimonial quotes or who wrote the
 * paper or report it presents.
 */
export const LANDING_JUNK_WORDS: ReadonlySet<string> = new Set(['promo', 'author', 'authors']);

// ---- prices

/** Page typing: a class naming a price (whole words, camelCase too). Prices in text: see product-rail.ts. */
export const PRICE_CLASS_RE = /(?:^|[\s_-]|[a-z](?=[A-Z]))(?:[Pp]rices?|[Pp]ricing)(?=$|[\s_-]|[A-Z])/;
