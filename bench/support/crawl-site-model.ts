/**
 * The generated crawl fixture's content, as data: every host's resources (pages with their links, redirects,
 * files, errors), its robots.txt rules and sitemaps, generated deterministically from a seed. crawl-site.ts serves
 * it; crawl-site-expected.ts walks it to say what a correct crawler stores. The link graph is built so that a
 * page's depth does not depend on the order a concurrent crawler happens to fetch pages in (see the rule below).
 */

export interface SiteShape {
  seed: number;
  hosts: number;
  pagesPerHost: number;
  /** Crawl-delay (seconds) in robots.txt of host 1, or null. */
  crawlDelaySeconds: number | null;
  trap: boolean;
  hugePageBytes: number;
}

/** A link as the model knows it; `render` gives the href as written in the page. */
export interface Link {
  host: number;
  path: string;
  /** One query parameter: tracking ones (utm_*) vanish from keys, the others stay unless queries are ignored. */
  query?: { name: string; value: string; tracking: boolean };
  fragment?: string;
  /** Written as `<path>index.html` (for a directory path ending in '/'). */
  index?: boolean;
  rel?: string;
  text: string;
}

export interface PageResource {
  kind: 'page';
  title: string;
  paragraphs: string[];
  links: Link[];
  /** Path of the rel=canonical URL (same host). */
  canonical?: string;
  /** Bytes of filler HTML (the huge page). */
  filler?: number;
}

export type Resource =
  | PageResource
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; to: { host: number; path: string } }
  | { kind: 'file'; type: string; bytes: number }
  | { kind: 'missing' }
  | { kind: 'error' };

export interface HostModel {
  resources: Map<string, Resource>;
  /** Sitemap entries by sitemap path (index children and robots-listed sitemaps of the host). */
  sitemaps: { index: string[]; urlsets: Map<string, string[]> };
  /** robots.txt `Sitemap:` paths, in file order. */
  robotsSitemaps: string[];
}

export const SECTIONS = ['docs', 'blog', 'news', 'shop'] as const;
/** Children per page in each section's tree. */
const BRANCHING = 3;
export const CALENDAR_START = Date.UTC(2024, 0, 1);

const WORDS = (
  'amber anchor arch atlas basin beacon birch bluff brook cable canyon cedar cliff cobalt coral crest delta dune ' +
  'ember fern fjord flint forge garnet glade granite harbor hazel heath indigo iris jade juniper kelp lagoon lantern ' +
  'larch maple marsh meadow mesa moss nectar north oasis onyx orchid otter pebble pine prairie quarry quartz raven ' +
  'reef ridge river saffron sage shoal slate spruce summit thistle tide timber tundra umber valley willow zephyr'
).split(' ');

/** mulberry32: a small seeded PRNG, so the same seed gives the same site. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)];

function sentence(rand: () => number, words: number): string {
  const text = Array.from({ length: words }, () => pick(rand, WORDS)).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function paragraphs(rand: () => number, count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: 3 + Math.floor(rand() * 3) }, () => sentence(rand, 8 + Math.floor(rand() * 8))).join(' '));
}

export const calendarPath = (day: number): string => {
  const d = new Date(CALENDAR_START + day * 86_400_000);
  return `/calendar/${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
};

/** The calendar page of `day` (0 = 2024-01-01): made on request, since the trap has no end. */
export function calendarPage(host: number, day: number): Resource {
  const links: Link[] = [...nav(host), { host, path: calendarPath(day + 1), text: 'Next day' }];
  if (day > 0) links.push({ host, path: calendarPath(day - 1), text: 'Previous day' });
  return { kind: 'page', title: `Events on ${calendarPath(day).slice(10)}`, paragraphs: ['No events on this day.'], links, canonical: calendarPath(day) };
}

const nav = (host: number): Link[] => [{ host, path: '/', text: 'Home' }, ...SECTIONS.map((s) => ({ host, path: `/${s}/`, text: s }))];

/**
 * Builds every host. The depth rule that keeps depths order-independent: a link from a page at level L goes to a
 * page at level L + 1 (its tree children, and cross links to other branches' pages one level down), or to a page
 * every crawl has already discovered before it can fetch the linking page: the home and section pages and other
 * hosts' home pages (all linked from the start home, which is the only way into the site besides the sitemaps'
 * orphans, and those link only home and below themselves), and the previous calendar day.
 */
export function buildSite(shape: SiteShape): HostModel[] {
  return Array.from({ length: shape.hosts }, (_, h) => buildHost(shape, h));
}

function buildHost(shape: SiteShape, h: number): HostModel {
  const rand = prng(shape.seed * 1000 + h + 1);
  const resources = new Map<string, Resource>();
  const used = new Set<string>();
  const slug = (): string => {
    for (;;) {
      const s = Array.from({ length: 2 + Math.floor(rand() * 2) }, () => pick(rand, WORDS)).join('-');
      if (!used.has(s)) {
        used.add(s);
        return s;
      }
    }
  };
  const page = (title: string, links: Link[], canonical: string, extra: Partial<PageResource> = {}): PageResource => ({
    kind: 'page',
    title,
    paragraphs: paragraphs(rand, 1 + Math.floor(rand() * 2)),
    links: [...nav(h), ...links],
    canonical,
    ...extra,
  });

  // The section trees: page j of a section hangs under the section page (j < BRANCHING) or under page
  // floor(j / BRANCHING) - 1 of the same section; its level below the section is its tree depth.
  const perSection = SECTIONS.map((_, s) => Math.floor(shape.pagesPerHost / SECTIONS.length) + (s < shape.pagesPerHost % SECTIONS.length ? 1 : 0));
  const tree = SECTIONS.map((section, s) =>
    Array.from({ length: perSection[s] }, (_, j) => ({ path: `/${section}/${slug()}`, parent: j < BRANCHING ? -1 : Math.floor(j / BRANCHING) - 1, depth: 0, links: [] as Link[] })),
  );
  const byDepth = new Map<number, string[]>();
  for (const nodes of tree) {
    for (const node of nodes) {
      node.depth = node.parent === -1 ? 2 : nodes[node.parent].depth + 1;
      byDepth.set(node.depth, [...(byDepth.get(node.depth) ?? []), node.path]);
    }
  }
  const otherHomes = Array.from({ length: shape.hosts }, (_, o) => o).filter((o) => o !== h);
  const childLink = (path: string): Link => {
    const r = rand();
    // Most links are plain; some carry a fragment, a tracking parameter, a content-neutral `ref`, or (3 %) a session
    // id (robots.txt disallows `/*?sessionid=`: behind such a link only, a subtree is out of reach of a polite crawler).
    if (r < 0.62) return { host: h, path, text: 'Read' };
    if (r < 0.72) return { host: h, path, fragment: 'comments', text: 'Comments' };
    if (r < 0.82) return { host: h, path, query: { name: 'utm_source', value: 'related', tracking: true }, text: 'Related' };
    if (r < 0.97) return { host: h, path, query: { name: 'ref', value: 'related', tracking: false }, text: 'See also' };
    return { host: h, path, query: { name: 'sessionid', value: String(Math.floor(rand() * 1e6)), tracking: false }, text: 'Continue' };
  };
  for (const [s, nodes] of tree.entries()) {
    for (const node of nodes) {
      const children = nodes.filter((n) => n.parent === nodes.indexOf(node)).map((n) => childLink(n.path));
      const below = (byDepth.get(node.depth + 1) ?? []).filter((p) => !p.startsWith(`/${SECTIONS[s]}/`));
      const cross = below.length > 0 && rand() < 0.5 ? [{ host: h, path: pick(rand, below), text: 'Elsewhere on the site' }] : [];
      const hosts = otherHomes.length > 0 && rand() < 0.15 ? [{ host: pick(rand, otherHomes), path: '/', text: 'A friendly site' }] : [];
      node.links = [...children, ...cross, ...hosts];
    }
  }
  for (const nodes of tree) for (const node of nodes) resources.set(node.path, page(titleOf(node.path), node.links, node.path));

  // Home, sections, the hub.
  const level2 = tree.flatMap((nodes) => nodes.filter((n) => n.parent === -1).map((n) => n.path));
  resources.set('/', page(`Host ${h} home`, [
    ...SECTIONS.map((s) => ({ host: h, path: `/${s}/`, index: true, text: `${s} (index)` })),
    { host: h, path: '/all-links', text: 'Every link' },
    ...otherHomes.map((o) => ({ host: o, path: '/', text: `Host ${o}` })),
    ...(h === 0 && shape.hosts > 1 ? [{ host: h, path: '/elsewhere', text: 'Moved away' }] : []),
  ], '/'));
  const sectionExtras: Record<(typeof SECTIONS)[number], Link[]> = {
    docs: [
      { host: h, path: '/private/', text: 'Private area' },
      { host: h, path: '/private/public-note', text: 'A public note' },
      { host: h, path: '/old-private', text: 'Old private link' },
      { host: h, path: '/docs/nofollow-only', rel: 'nofollow', text: 'Sponsored' },
      ...(shape.hugePageBytes > 0 ? [{ host: h, path: '/docs/huge', text: 'The whole manual' }] : []),
      { host: h, path: '/files/report.pdf', text: 'Report (PDF)' },
      { host: h, path: '/files/photo.png', text: 'Photo' },
      { host: h, path: '/files/archive.zip', text: 'Archive' },
    ],
    blog: [
      { host: h, path: `/old${tree[1][0]?.path.slice(5) ?? '/none'}`, text: 'Old address' },
      { host: h, path: '/r/moved', text: 'Moved post' },
      { host: h, path: '/chain/1', text: 'Redirect chain' },
      { host: h, path: '/loop/a', text: 'Redirect loop' },
      { host: h, path: '/gone', text: 'Gone' },
      { host: h, path: '/broken', text: 'Broken' },
      { host: h, path: `/missing/${slug()}`, text: 'Dead link' },
    ],
    news: shape.trap ? [{ host: h, path: calendarPath(0), text: 'Events calendar' }] : [],
    shop: level2.filter((p) => p.startsWith('/shop/')).map((path) => ({ host: h, path: `/shop/print${path.slice(5)}`, text: 'Printable' })),
  };
  for (const [s, section] of SECTIONS.entries()) {
    const children = tree[s].filter((n) => n.parent === -1).map((n) => childLink(n.path));
    resources.set(`/${section}/`, page(`${section} — host ${h}`, [...children, ...sectionExtras[section]], `/${section}/`));
  }
  // The hub: hundreds of anchors, all to pages one level down or already known, in every spelling.
  const hub: Link[] = [];
  for (const path of ['/', ...SECTIONS.map((s) => `/${s}/`), ...level2]) {
    hub.push({ host: h, path, text: 'plain' });
    for (let k = 0; k < 20; k++) hub.push({ host: h, path, fragment: `p${k}`, text: `part ${k}` });
    hub.push({ host: h, path, query: { name: 'utm_source', value: 'hub', tracking: true }, text: 'tracked' });
    hub.push({ host: h, path, query: { name: 'ref', value: 'hub', tracking: false }, text: 'ref' });
    hub.push({ host: h, path, query: { name: 'sessionid', value: 'hub', tracking: false }, text: 'session' });
  }
  resources.set('/all-links', page(`All links of host ${h}`, hub, '/all-links'));

  // Robots-governed pages, redirects, failures, canonical duplicates, the huge page, a nofollow-only page.
  resources.set('/private/', page('Private', [{ host: h, path: '/private/report-a', text: 'A' }, { host: h, path: '/private/report-b', text: 'B' }, { host: h, path: '/private/public-note', text: 'Note' }], '/private/'));
  for (const p of ['/private/report-a', '/private/report-b', '/private/archive', '/private/orphan', '/private/public-note']) resources.set(p, page(titleOf(p), [], p));
  resources.set('/old-private', { kind: 'redirect', status: 301, to: { host: h, path: '/private/archive' } });
  if (tree[1][0]) resources.set(`/old${tree[1][0].path.slice(5)}`, { kind: 'redirect', status: 301, to: { host: h, path: tree[1][0].path } });
  const moved = `/moved/${slug()}`;
  resources.set('/r/moved', { kind: 'redirect', status: 301, to: { host: h, path: moved } });
  resources.set(moved, page('Moved post', [], moved));
  resources.set('/chain/1', { kind: 'redirect', status: 302, to: { host: h, path: '/chain/2' } });
  resources.set('/chain/2', { kind: 'redirect', status: 307, to: { host: h, path: '/chain/3' } });
  resources.set('/chain/3', { kind: 'redirect', status: 301, to: { host: h, path: '/landing' } });
  resources.set('/landing', page('Landing', [], '/landing'));
  resources.set('/loop/a', { kind: 'redirect', status: 302, to: { host: h, path: '/loop/b' } });
  resources.set('/loop/b', { kind: 'redirect', status: 302, to: { host: h, path: '/loop/a' } });
  resources.set('/gone', { kind: 'redirect', status: 301, to: { host: h, path: '/nowhere' } });
  if (h === 0 && shape.hosts > 1) resources.set('/elsewhere', { kind: 'redirect', status: 302, to: { host: 1, path: '/' } });
  resources.set('/broken', { kind: 'error' });
  resources.set('/files/report.pdf', { kind: 'file', type: 'application/pdf', bytes: 2048 });
  resources.set('/files/photo.png', { kind: 'file', type: 'image/png', bytes: 4096 });
  resources.set('/files/archive.zip', { kind: 'file', type: 'application/zip', bytes: 8192 });
  resources.set('/docs/nofollow-only', page('Only behind nofollow', [], '/docs/nofollow-only'));
  if (shape.hugePageBytes > 0) resources.set('/docs/huge', page('The whole manual', [], '/docs/huge', { filler: shape.hugePageBytes }));
  for (const path of level2.filter((p) => p.startsWith('/shop/'))) resources.set(`/shop/print${path.slice(5)}`, page(`${titleOf(path)} (print)`, [], path));

  // Orphans: in the sitemaps only, each with one page below it.
  const orphans = Array.from({ length: Math.max(3, Math.round(shape.pagesPerHost / 20)) }, () => `/archive/${slug()}`);
  // They link home and below themselves only: a crawler may fetch them before the home page, and a section link
  // from them would let the rest of the site be reached in another order (see the depth rule above).
  const home: Link = { host: h, path: '/', text: 'Home' };
  for (const o of orphans) {
    resources.set(o, { ...page(titleOf(o), [], o), links: [home, { host: h, path: `${o}/notes`, text: 'Notes' }] });
    resources.set(`${o}/notes`, { ...page(`${titleOf(o)} notes`, [], `${o}/notes`), links: [home] });
  }
  const half = Math.ceil((orphans.length - 1) / 2);
  return {
    resources,
    sitemaps: {
      index: ['/sitemap-pages.xml', '/sitemap-archive.xml.gz'],
      urlsets: new Map([
        ['/sitemap-pages.xml', ['/', ...orphans.slice(0, half)]],
        ['/sitemap-archive.xml.gz', [...orphans.slice(half, -1), '/private/orphan', `/missing/${slug()}`]],
        ['/sitemap-news.txt', orphans.slice(-1)],
      ]),
    },
    robotsSitemaps: ['/sitemap.xml', '/sitemap-news.txt'],
  };
}

const titleOf = (path: string): string => {
  const last = path.split('/').filter(Boolean).pop() ?? 'home';
  return last.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
};

/** The robots.txt of host `h` (the same rules on every host; Crawl-delay on host 1 only). */
export function robotsTxt(shape: SiteShape, h: number, origin: string, sitemaps: string[]): string {
  const delay = h === 1 && shape.crawlDelaySeconds !== null ? [`Crawl-delay: ${shape.crawlDelaySeconds}`] : [];
  return [
    '# Generated crawl fixture',
    'User-agent: BadBot',
    'Disallow: /',
    '',
    'User-agent: *',
    'Disallow: /private/',
    'Allow: /private/public-note',
    'Disallow: /*?sessionid=',
    ...delay,
    '',
    ...sitemaps.map((s) => `Sitemap: ${origin}${s}`),
    '',
  ].join('\n');
}

/** What the fixture's robots.txt (the `*` group) disallows, as the model knows it (independent of any parser). */
export const robotsDisallows = (pathAndQuery: string): boolean =>
  (pathAndQuery.startsWith('/private/') && !pathAndQuery.startsWith('/private/public-note')) || /^\/[^?]*\?sessionid=/.test(pathAndQuery);
