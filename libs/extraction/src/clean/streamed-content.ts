/**
 * Content streamed by React's server renderer (Next.js and others): the server first sends the page with a
 * placeholder for each part still loading (a `<template id="B:0">` boundary, its fallback up to the `<!--/$-->` marker,
 * or a `<template id="P:0">` segment), then sends each part when ready as a hidden `<div hidden id="S:0">` at the end
 * of the body, with a script that moves it into place. A browser runs the script; a static reading must do the move
 * itself, or the article is lost with the hidden div (and "Loading…" fallbacks are read instead).
 */
import { isComment } from 'domhandler';
import { contains, findAll, relink, removeChildren, removeNode, type Document, type Element } from '../dom.js';

const SEGMENT_ID = /^S:[0-9a-f]+$/;
const PLACEHOLDER_ID = /^[BP]:[0-9a-f]+$/;

/** Moves each streamed segment to its placeholder, in document order (a segment can hold the next one's placeholder). */
export function placeStreamedContent(doc: Document): void {
  const segments = findAll(doc, (el) => el.name === 'div' && 'hidden' in el.attribs && SEGMENT_ID.test(el.attribs.id ?? ''));
  if (segments.length === 0) return;
  const placeholders = new Map<string, Element>();
  for (const t of findAll(doc, (el) => el.name === 'template' && PLACEHOLDER_ID.test(el.attribs.id ?? ''))) placeholders.set(t.attribs.id!, t);
  for (const segment of segments) {
    const n = segment.attribs.id!.slice(2);
    const segmentSlot = placeholders.get(`P:${n}`);
    const boundary = placeholders.get(`B:${n}`);
    const target = segmentSlot ?? boundary;
    if (!target?.parent || contains(segment, target)) continue;
    if (!segmentSlot) removeFallback(target);
    const parent = target.parent;
    const children = [...parent.children];
    children.splice(children.indexOf(target), 1, ...segment.children);
    target.parent = null;
    segment.children = [];
    relink(parent, children);
    removeNode(segment);
  }
}

/** A boundary's fallback: its following siblings up to the `<!--/$-->` that closes it (boundaries nest). */
function removeFallback(template: Element): void {
  const siblings = template.parent!.children;
  const start = siblings.indexOf(template) + 1;
  let depth = 0;
  for (let i = start; i < siblings.length; i++) {
    const node = siblings[i];
    if (!isComment(node)) continue;
    const data = node.data;
    if (data === '$' || data === '$?' || data === '$!') depth++;
    else if (data === '/$') {
      if (depth === 0) {
        removeChildren(template.parent!, new Set(siblings.slice(start, i)));
        return;
      }
      depth--;
    }
  }
  // No closing marker (comments stripped): the fallback cannot be told from what follows, so it stays.
}

