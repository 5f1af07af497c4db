/**
 * The format pipeline of this build beside another build of Trawl, page by page in one process: CPU time per page of
 * each (the order alternating per page and round, so that the machine's drift and the other's garbage fall on both
 * alike), and whether both give the same output for every page.
 *   npm run build && node dist/bench/extraction/compare-builds.js --other=/path/to/checkout [--rounds=3]
 *     [--set=zyte|wcxb|all|every] [--formats=markdown,enhanced_html,page_text]
 * The other checkout must be built (`npm run build`) and have its node_modules (a symlink to this one's will do).
 * `wcxb` and `all` take every third WCXB dev page (499), `zyte` the 181 Zyte pages; `every` takes every page of every
 * dataset (Zyte, trafilatura, the Readability test pages, all of WCXB dev): the check that a change alters no output. `--formats` names the outputs asked
 * for (and so timed and compared, with the metadata); by default those /crawl returns plus page_text, the scored one.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OUTPUT_FORMATS, type OutputFormat } from '#contracts';
import { formatPage, type FormatOptions, type OutputFormats } from '#extraction';
import { corpusRoot, loadReadability, loadTrafilatura, loadWcxb, loadZyte } from './scoring/corpus.js';

type Format = typeof formatPage;

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const other = arg('other');
const rounds = Number(arg('rounds') ?? 3);
const set = arg('set') ?? 'all';
const isFormatName = (name: string): name is OutputFormat => (OUTPUT_FORMATS as readonly string[]).includes(name);
const asked = (arg('formats') ?? 'markdown,enhanced_html,page_text').split(',').filter(Boolean);
if (!other || !Number.isInteger(rounds) || rounds < 1 || !['zyte', 'wcxb', 'all', 'every'].includes(set) || asked.length === 0 || !asked.every(isFormatName)) {
  console.error('usage: compare-builds.js --other=/path/to/checkout [--rounds=3] [--set=zyte|wcxb|all|every] [--formats=markdown,enhanced_html,page_text]');
  process.exit(2);
}
const otherModule = path.resolve(other, 'dist/libs/extraction/src/format-page.js');
if (!existsSync(otherModule)) {
  console.error(`no build at ${otherModule}: run npm run build there`);
  process.exit(2);
}

const root = corpusRoot(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'));
const pages: Array<{ html: string; url: string }> = [];
if (set !== 'wcxb') pages.push(...(loadZyte(root) ?? []));
if (set === 'every') {
  pages.push(...(loadTrafilatura(root) ?? []));
  // The URL Readability's own tests read their pages at.
  pages.push(...(loadReadability(root) ?? []).map((p) => ({ html: p.html, url: 'http://fakehost/test/page.html' })));
}
if (set !== 'zyte') pages.push(...(loadWcxb(root) ?? []).filter((_, i) => set === 'every' || i % 3 === 0));
if (pages.length === 0) {
  console.error(`no corpus pages under ${root}`);
  process.exit(2);
}

const FORMATS: OutputFormats = { raw_html: false, enhanced_html: false, markdown: false, page_text: false };
for (const name of asked) if (isFormatName(name)) FORMATS[name] = true;
const theirs = ((await import(pathToFileURL(otherModule).href)) as { formatPage: Format }).formatPage;
const builds: Format[] = [formatPage, theirs];

const differing: string[] = [];
for (const p of pages) {
  const options: FormatOptions = { url: p.url, formats: FORMATS };
  const [mine, others] = builds.map((format) => JSON.stringify(format(p.html, options)));
  if (mine !== others) differing.push(p.url);
}

const cpuMicros = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const rows = [];
for (let r = 0; r < rounds; r++) {
  const spent = [0, 0];
  pages.forEach((p, i) => {
    const options: FormatOptions = { url: p.url, formats: FORMATS };
    const order = (i + r) % 2 === 0 ? [0, 1] : [1, 0];
    for (const b of order) {
      const start = cpuMicros();
      builds[b](p.html, options);
      spent[b] += cpuMicros() - start;
    }
  });
  const [mine, theirsMs] = spent.map((us) => us / 1e3 / pages.length);
  rows.push({ round: r + 1, 'this build ms/page': +mine.toFixed(2), 'other ms/page': +theirsMs.toFixed(2), 'this / other': +(mine / theirsMs).toFixed(3) });
}
console.log(`${pages.length} pages (${set}), ${asked.join(' + ')} + metadata; pages whose output differs: ${differing.length}`);
// The first few, to look at with `npm run trawl -- extract`.
for (const url of differing.slice(0, 10)) console.log(`  differs: ${url}`);
console.table(rows);
