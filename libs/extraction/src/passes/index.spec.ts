// The pipeline of passes: one ordered list, run stage by stage on the pages each pass applies to (see index.ts).
import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, type Element } from '../dom.js';
import { profileOf } from '../profile.js';
import { PASSES, runPasses } from './index.js';
import type { Stage } from './pass.js';

const STAGES: Stage[] = ['pick', 'region', 'content'];

describe('PASSES', () => {
  it('names each pass once', () => {
    expect(new Set(PASSES.map((p) => p.name)).size).toBe(PASSES.length);
  });

  it('lists the stages in the order selection reaches them', () => {
    const stages = PASSES.map((p) => STAGES.indexOf(p.stage));
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
  });
});

describe('runPasses', () => {
  const thread = (): Element =>
    bodyOf(parseHtml(`<html><body><div class="post"><p>First answer: close the vent halfway.</p><span class="votes">12</span></div><div class="post"><p>Second answer: let it settle.</p><span>7</span></div></body></html>`)) as Element;

  it("runs a stage's passes on the pages they apply to, and no others", () => {
    const forum = thread();
    runPasses('content', { roots: [forum], profile: profileOf('forum') });
    expect(forum.children.map((c) => (c as Element).children.length)).toEqual([1, 1]);
    const article = thread();
    runPasses('content', { roots: [article], profile: profileOf('article') });
    expect(article.children.map((c) => (c as Element).children.length)).toEqual([2, 2]);
  });
});
