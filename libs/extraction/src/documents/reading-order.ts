/**
 * Reading order of a PDF page from pdf.js text items: items are grouped into lines by baseline, lines into
 * paragraphs by the gaps between them; a page set in two columns is read left column first. Columns are found from
 * the items' x-positions: a vertical gutter in the middle of the text that no item crosses (bar a few full-width
 * ones — a title, a figure caption across both columns), with text on both of its sides at the same heights. Items
 * crossing the gutter cut the page into bands, each read as left column, then right column.
 */

/** One run of text as pdf.js places it: baseline origin (x, y, PDF units, y upwards), width and font size. */
export interface TextRun {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

export interface Line {
  text: string;
  x: number;
  y: number;
  /** The largest font size on the line. */
  size: number;
}

/** A paragraph (lines joined, hyphenation undone), and whether its type is set larger than the body's. */
export interface Block {
  text: string;
  heading: boolean;
}

/** The page's lines in reading order. */
export function readingOrder(runs: readonly TextRun[]): Line[] {
  const visible = runs.filter((r) => r.text.trim() !== '' && Number.isFinite(r.x) && Number.isFinite(r.y));
  const gutter = findGutter(visible);
  if (gutter === undefined) return toLines(visible);
  const crosses = (r: TextRun): boolean => r.x < gutter && r.x + r.width > gutter;
  const cuts = toLines(visible.filter(crosses));
  const sides = visible.filter((r) => !crosses(r));
  const out: Line[] = [];
  let top = Infinity;
  for (let i = 0; i <= cuts.length; i++) {
    const bottom = i < cuts.length ? cuts[i].y : -Infinity;
    const band = sides.filter((r) => r.y < top && r.y >= bottom);
    out.push(...toLines(band.filter((r) => r.x + r.width <= gutter)), ...toLines(band.filter((r) => r.x >= gutter)));
    if (i < cuts.length) out.push(cuts[i]);
    top = bottom;
  }
  return out;
}

/** Share of the runs that may cross a gutter (full-width titles and captions). */
const CROSSING_SHARE = 0.15;
/** Fewest lines of text each column must hold for a page to count as set in two columns. */
const MIN_COLUMN_LINES = 3;

/** The x of the gutter between two columns, or undefined for a page set in one. */
export function findGutter(runs: readonly TextRun[]): number | undefined {
  if (runs.length < 2 * MIN_COLUMN_LINES) return undefined;
  let left = Infinity;
  let right = -Infinity;
  for (const r of runs) {
    left = Math.min(left, r.x);
    right = Math.max(right, r.x + r.width);
  }
  const width = right - left;
  if (width <= 0) return undefined;
  const size = median(runs.map((r) => r.size));
  // Candidate gutters every point across the middle 40% of the text, where columns split a page.
  let best: { x: number; crossing: number; gap: number } | undefined;
  for (let x = left + width * 0.3; x <= left + width * 0.7; x += 1) {
    let crossing = 0;
    let nearest = Infinity;
    for (const r of runs) {
      if (r.x < x && r.x + r.width > x) crossing++;
      else nearest = Math.min(nearest, r.x >= x ? r.x - x : x - (r.x + r.width));
    }
    if (best === undefined || crossing < best.crossing || (crossing === best.crossing && nearest > best.gap)) best = { x, crossing, gap: nearest };
  }
  if (best === undefined || best.crossing > runs.length * CROSSING_SHARE || best.gap < size * 0.5) return undefined;
  // Columns stand side by side: both hold several lines, at overlapping heights.
  const x = best.x;
  const leftLines = toLines(runs.filter((r) => r.x + r.width <= x));
  const rightLines = toLines(runs.filter((r) => r.x >= x));
  if (leftLines.length < MIN_COLUMN_LINES || rightLines.length < MIN_COLUMN_LINES) return undefined;
  const span = (lines: Line[]): [number, number] => [lines.reduce((m, l) => Math.min(m, l.y), Infinity), lines.reduce((m, l) => Math.max(m, l.y), -Infinity)];
  const [lLow, lHigh] = span(leftLines);
  const [rLow, rHigh] = span(rightLines);
  const overlap = Math.min(lHigh, rHigh) - Math.max(lLow, rLow);
  return overlap > size * 2 ? x : undefined;
}

/** Runs grouped into lines by baseline (top to bottom), each line's runs left to right. */
export function toLines(runs: readonly TextRun[]): Line[] {
  const sorted = [...runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: TextRun[][] = [];
  for (const run of sorted) {
    const group = groups.at(-1);
    if (group !== undefined && Math.abs(group[0].y - run.y) <= Math.max(group[0].size, run.size) * 0.4) group.push(run);
    else groups.push([run]);
  }
  return groups.map((group) => {
    group.sort((a, b) => a.x - b.x);
    let text = '';
    let end = -Infinity;
    for (const run of group) {
      const gap = run.x - end;
      if (text !== '' && gap > run.size * 0.15 && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
      text += run.text;
      end = run.x + run.width;
    }
    return { text: text.replace(/\s+/g, ' ').trim(), x: group[0].x, y: group[0].y, size: group.reduce((m, r) => Math.max(m, r.size), 0) };
  });
}

/**
 * Lines into paragraphs: a new one where the gap to the previous line is wider than the usual line spacing, where the
 * text moves up (the next column) or where the type size changes; larger type than the body's is a heading.
 */
export function toBlocks(lines: readonly Line[], bodySize: number): Block[] {
  // The line spacing is the common small gap (a low percentile: paragraphs of one line make many gaps wider).
  const spacing = percentile(lines.slice(1).map((l, i) => lines[i].y - l.y).filter((d) => d > 0), 0.2) || bodySize * 1.2;
  const blocks: Block[] = [];
  let current: { lines: string[]; heading: boolean } | undefined;
  let previous: Line | undefined;
  for (const line of lines) {
    const heading = line.size >= bodySize * 1.2 && line.text.length <= 160;
    const gap = previous === undefined ? Infinity : previous.y - line.y;
    const continues = current !== undefined && heading === current.heading && gap > 0 && gap <= spacing * 1.3 && Math.abs(line.size - (previous?.size ?? 0)) < 0.5;
    if (!continues) {
      if (current) blocks.push({ text: joinLines(current.lines), heading: current.heading });
      current = { lines: [], heading };
    }
    current?.lines.push(line.text);
    previous = line;
  }
  if (current) blocks.push({ text: joinLines(current.lines), heading: current.heading });
  return blocks.filter((b) => b.text !== '');
}

/** Lines of one paragraph joined with spaces; a word hyphenated across a line break is joined back. */
function joinLines(lines: readonly string[]): string {
  let text = '';
  for (const line of lines) {
    if (text === '') text = line;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text += ` ${line}`;
  }
  return text;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);

function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * share)];
}
