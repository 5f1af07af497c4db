/**
 * Recirculation modules inside the selected content: the "you may also like", "people who viewed this item also
 * viewed", "related articles" rails that shops and publishers place under the product or the story. Their class
 * names are often generated (`x-3fa9c`) and their cards hold little text each, so neither the cleaning words nor
 * link density catch them all; what they always carry is a heading that says what they are. The module is the
 * heading's largest ancestor holding no other heading but lower-ranked ones (the titles of the rail's cards), or, in a
 * flat layout, the heading and the blocks after it up to the next heading.
 */
import { HEADING_TAGS, isTag, removeChildren, squashedTextLength, textContent, type ChildNode, type Element, type ParentNode } from '../dom.js';
import { everyPage, type Pass } from './pass.js';

export const recirculation: Pass = {
  name: 'recirculation',
  stage: 'content',
  appliesTo: everyPage,
  run: ({ roots }) => removeRecirculation(roots),
};

/**
 * Headings of recommendation rails (shops and publishers, English and a few large languages), and of the rails of blog
 * posts, reports and case studies that close a service page ("From our blog", "Featured insights", "Featured client
 * stories": teasers of other pages, as a shop's related products are).
 */
const RECIRCULATION_RE = new RegExp(
  '^(?:' +
    [
      '(?:people|customers|shoppers|others) (?:who )?(?:also )?(?:viewed|bought|purchased|searched|liked)',
      '(?:customers|shoppers|people) also',
      'you (?:may|might|will|would) (?:also )?(?:like|love|enjoy|be interested)',
      '(?:related|similar|recommended|suggested|sponsored|featured|trending|popular) (?:products?|items?|articles?|posts?|stories|news|content|reads?|reading|searches|videos?|(?:client|customer|success) stories|case studies)',
      'recommended for you',
      'recently viewed',
      'frequently bought together',
      'more (?:from|like this|to explore|stories|articles|news|products|items)',
      'from (?:our|the) blog',
      '(?:latest|recent|featured) insights',
      'explore (?:related|similar|more)',
      'more in ',
      '(?:what|things) to read next',
      'read (?:next|more|also)',
      'also (?:read|viewed|on)',
      'shop (?:the look|similar)',
      'complete the look',
      'compare (?:similar|with similar)',
      "don'?t miss",
      'das könnte (?:sie|dich) auch interessieren',
      'ähnliche (?:artikel|produkte)',
      'vous (?:aimerez|aimeriez|pourriez) aussi',
      'produits similaires',
      'te puede interesar',
      'productos (?:similares|relacionados)',
    ].join('|') +
    ')',
  'i',
);
/** Longer headings are titles of content, not labels of a rail. */
const MAX_HEADING = 80;

function isRecirculationHeading(el: Element): boolean {
  if (!HEADING_TAGS.has(el.name) && el.attribs.role !== 'heading') return false;
  const text = textContent(el).replace(/\s+/g, ' ').trim().replace(/[:…]+$/, '');
  return text.length > 0 && text.length <= MAX_HEADING && RECIRCULATION_RE.test(text);
}

function headingsIn(root: ParentNode, out: Element[] = []): Element[] {
  for (const c of root.children) {
    if (!isTag(c)) continue;
    if (HEADING_TAGS.has(c.name) || c.attribs.role === 'heading') out.push(c);
    else headingsIn(c, out);
  }
  return out;
}

const rank = (el: Element): number => (HEADING_TAGS.has(el.name) && /^h[1-6]$/.test(el.name) ? Number(el.name[1]) : 2);

/** Whether the headings of `parent` other than `h` rank below it (the titles of the rail's cards). */
function onlyHeadingsUnder(parent: Element, h: Element): boolean {
  const r = rank(h);
  return headingsIn(parent).every((o) => o === h || (/^h[1-6]$/.test(o.name) && rank(o) > r));
}

/** Paragraph length from which a block reads as prose rather than a card's blurb. */
const PROSE = 200;

/** Whether `parent` holds a prose paragraph outside `module` (then it is the content around the rail, not the rail). */
function proseBeside(parent: Element, module: Element): boolean {
  const visit = (n: ParentNode): boolean => {
    for (const c of n.children) {
      if (c === module || !isTag(c)) continue;
      if (c.name === 'p' || c.name === 'blockquote' || c.name === 'pre') {
        if (squashedTextLength(c) >= PROSE) return true;
      } else if (visit(c)) return true;
    }
    return false;
  };
  return visit(parent);
}

/** Remove the recommendation rails inside `roots`, in place (the roots themselves stay). */
export function removeRecirculation(roots: ParentNode[]): void {
  const rootSet = new Set<ParentNode>(roots);
  for (const root of roots) {
    for (const h of headingsIn(root).filter(isRecirculationHeading)) {
      if (!h.parent) continue; // already removed with an earlier module
      let module: Element = h;
      while (module.parent && isTag(module.parent) && !rootSet.has(module.parent) && onlyHeadingsUnder(module.parent, h) && !proseBeside(module.parent, module)) {
        module = module.parent;
      }
      const parent = module.parent;
      if (!parent) continue;
      const doomed = new Set<ChildNode>([module]);
      if (module === h) {
        // A flat layout: the heading labels the blocks that follow it, up to the next heading.
        const siblings = parent.children;
        for (let i = siblings.indexOf(h) + 1; i < siblings.length; i++) {
          const s = siblings[i];
          if (isTag(s) && (HEADING_TAGS.has(s.name) || headingsIn(s).length > 0)) break;
          doomed.add(s);
        }
      }
      removeChildren(parent, doomed);
    }
  }
}
