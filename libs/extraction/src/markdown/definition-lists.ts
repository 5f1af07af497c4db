/**
 * Definition lists, which Markdown has no syntax for — the converter writes them as raw HTML, tags, attributes and
 * links in angle brackets — become lists, with the same words in the same order:
 * - a term with a one-line definition: `- **Weight**: 2 kg` (a product's specification, a glossary);
 * - a term whose definition holds blocks: the term in bold, its paragraphs (code, lists) inside the same item
 *   (`- **`UNIQUE`**` over its explanation, as reference manuals list a command's parameters);
 * - a term whose definition is only a list: the term, the list nested under it (a table of contents, which DocBook
 *   and other documentation generators write as nested `<dl>`s);
 * - a term without a definition: the term alone.
 * Several terms before one definition are items of their own, the definition under the last; a definition before
 * any term is an item without one. `<div>` groups inside the list (HTML allows them) are read through.
 */
import { BLOCK_TAGS, Text, createElement, findAll, isTag, replaceWith, visible, type ChildNode, type Element, type ParentNode } from '../dom.js';

const LISTS = new Set(['ul', 'ol']);
const EMPHASIS = new Set(['strong', 'b']);

export function definitionListsAsLists(root: ParentNode): void {
  // Innermost first: a definition that holds a definition list holds a list by the time its own item is built.
  for (const dl of findAll(root, (e) => e.name === 'dl').reverse()) replaceWith(dl, [asList(dl)]);
}

interface Entry {
  term?: Element;
  definitions: Element[];
}

function asList(dl: Element): Element {
  const entries: Entry[] = [];
  for (const el of termsAndDefinitions(dl)) {
    if (el.name === 'dt') entries.push({ term: el, definitions: [] });
    else {
      const last = entries[entries.length - 1];
      if (last) last.definitions.push(el);
      else entries.push({ definitions: [el] });
    }
  }
  return createElement('ul', {}, entries.map(item));
}

function termsAndDefinitions(parent: Element): Element[] {
  const out: Element[] = [];
  for (const child of parent.children) {
    if (!isTag(child)) continue;
    if (child.name === 'dt' || child.name === 'dd') out.push(child);
    else if (child.name === 'div') out.push(...termsAndDefinitions(child));
  }
  return out;
}

function item({ term, definitions }: Entry): Element {
  const termNodes = term ? [...term.children] : [];
  const shown = definitions.filter((d) => d.children.some(visible));
  if (shown.length === 0) return createElement('li', {}, termNodes);
  if (!term || !termNodes.some(visible)) return createElement('li', {}, shown.flatMap(blocks));
  if (shown.every(onlyLists)) return createElement('li', {}, [...termNodes, ...shown.flatMap((d) => [...d.children])]);
  const label = emphasised(termNodes);
  if (shown.length === 1 && !shown[0]!.children.some(isBlock) && !termNodes.some(isBlock)) {
    return createElement('li', {}, [...label, new Text(': '), ...shown[0]!.children]);
  }
  const heading = termNodes.some(isBlock) ? label : [createElement('p', {}, label)];
  return createElement('li', {}, [...heading, ...shown.flatMap(blocks)]);
}

/** A definition's content as blocks of an item: a definition of inline content only is one paragraph. */
function blocks(definition: Element): ChildNode[] {
  const children = [...definition.children];
  return children.some(isBlock) ? children : [createElement('p', {}, children)];
}

/** The term in bold, unless it is bold already or holds blocks. */
function emphasised(nodes: ChildNode[]): ChildNode[] {
  const seen = nodes.filter(visible);
  if (nodes.some(isBlock) || (seen.length === 1 && isTag(seen[0]!) && EMPHASIS.has(seen[0].name))) return nodes;
  return [createElement('strong', {}, nodes)];
}

function onlyLists(definition: Element): boolean {
  return definition.children.every((c) => !visible(c) || (isTag(c) && LISTS.has(c.name)));
}

const isBlock = (node: ChildNode): boolean => isTag(node) && BLOCK_TAGS.has(node.name);
