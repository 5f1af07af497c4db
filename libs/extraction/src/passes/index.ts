/**
 * The passes, in the order they run: this list is the pipeline of removals after cleaning. A pass runs when selection
 * reaches its stage (see `Stage`) and the page's profile is one it applies to. Adding a pass is a module that exports a
 * `Pass` and one line here, at the place in its stage where it should run.
 */
import type { Pass, PassContext, Stage } from './pass.js';
import { adCards } from './ad-cards.js';
import { callsToAction } from './cta-links.js';
import { compareControls } from './compare-controls.js';
import { cookieNotices } from './cookie-notice.js';
import { docsNavigation } from './docs-nav.js';
import { edgeTrim, regionEdgeTrim } from './edge-trim.js';
import { filterPanels } from './filter-panels.js';
import { finePrint } from './product-fine-print.js';
import { forumNotices } from './forum-notices.js';
import { innerBoilerplate, regionBoilerplate } from './inner-boilerplate.js';
import { linkBlocks } from './link-blocks.js';
import { marquees } from './marquee.js';
import { productRails } from './product-rail.js';
import { productReviews } from './product-reviews.js';
import { recirculation } from './recirculation.js';
import { repeatedBlocks, responsiveDuplicates } from './responsive-duplicates.js';
import { repeatedQuotes } from './forum-quotes.js';
import { threadCounters } from './thread-counters.js';

export const PASSES: readonly Pass[] = [
  // pick: inside the scorer's pick, after its conditional prune
  innerBoilerplate,
  edgeTrim,
  // region: a page widened to its <main> region or its body, a thread to its posts
  regionBoilerplate,
  linkBlocks,
  docsNavigation,
  callsToAction,
  filterPanels,
  regionEdgeTrim,
  // content: whatever was selected
  recirculation,
  responsiveDuplicates,
  marquees,
  threadCounters,
  forumNotices,
  repeatedQuotes,
  cookieNotices,
  adCards,
  compareControls,
  productReviews,
  productRails,
  finePrint,
  repeatedBlocks,
];

const byStage = new Map<Stage, Pass[]>();
for (const pass of PASSES) byStage.set(pass.stage, [...(byStage.get(pass.stage) ?? []), pass]);

/** Run the passes of `stage` that apply to the page, in order, over `ctx.roots`. */
export function runPasses(stage: Stage, ctx: PassContext): void {
  for (const pass of byStage.get(stage) ?? []) if (pass.appliesTo(ctx.profile)) pass.run(ctx);
}
