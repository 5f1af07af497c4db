/**
 * The other direction a block classifier could take: vetoing cleaning's drop rules. This measures its ceiling on the
 * WCXB dev split — an oracle that knows the ground truth keeps every element a rule would drop whose words are mostly
 * (share >= --label, default 0.5) in the page's truth, and the page then goes through the whole pipeline (selection
 * sees what the veto kept).
 *   npm run build && npm run bench:extraction-veto -- [--rules=chrome-words,hidden,junk] [--label=0.5]
 * A learned veto trained on the same label can at best match it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatPage } from '#extraction';
import { DROP_RULES, type DropRule } from '#extraction/clean/drop-rules.js';
import { textContent } from '#extraction/dom.js';
import { corpusRoot, loadWcxb } from './scoring/corpus.js';
import { tokenize, wordScore } from './scoring/metrics.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const vetoed = new Set(arg('rules', 'chrome-words,hidden,junk').split(','));
const labelAt = Number(arg('label', '0.5'));

let truth = new Set<string>();
let active = false;
const vetoes = new Map<string, number>();
// The rules list is read once per tag, on first use: replace the vetoed rules before any page is cleaned.
const rules = DROP_RULES as DropRule[];
for (const [i, rule] of rules.entries()) {
  if (!vetoed.has(rule.name)) continue;
  rules[i] = {
    ...rule,
    judge: (j) => {
      const verdict = rule.judge(j);
      if (verdict !== 'drop' || !active) return verdict;
      const tokens = tokenize(textContent(j.el).toLowerCase());
      if (tokens.length === 0 || tokens.filter((t) => truth.has(t)).length / tokens.length < labelAt) return verdict;
      vetoes.set(rule.name, (vetoes.get(rule.name) ?? 0) + 1);
      return undefined;
    },
  };
}

const pages = loadWcxb(corpusRoot(repoRoot));
if (!pages) throw new Error('WCXB dev corpus absent');
const TYPES = ['article', 'documentation', 'service', 'forum', 'product', 'listing', 'collection'];
const base: number[] = [];
const veto: number[] = [];
for (const p of pages) {
  truth = new Set(tokenize(p.truth.toLowerCase()));
  const formats = { raw_html: false, enhanced_html: false, markdown: true, page_text: true };
  active = false;
  base.push(wordScore(p.truth, formatPage(p.html, { url: p.url, formats }).page_text ?? '').f1);
  active = true;
  veto.push(wordScore(p.truth, formatPage(p.html, { url: p.url, formats }).page_text ?? '').f1);
}
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const of = (xs: number[], type?: string): number => mean(xs.filter((_, i) => !type || pages[i].pageType === type));
console.log(`veto oracle on ${[...vetoed].join(', ')} (element kept when >= ${labelAt} of its words are in the truth); vetoes: ${[...vetoes].map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`rules  overall ${of(base).toFixed(4)}  ${TYPES.map((t) => `${t} ${of(base, t).toFixed(4)}`).join('  ')}`);
console.log(`oracle overall ${of(veto).toFixed(4)}  ${TYPES.map((t) => `${t} ${of(veto, t).toFixed(4)}`).join('  ')}`);
