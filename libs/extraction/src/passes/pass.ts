/**
 * A pass removes one kind of boilerplate from the selected content, in place. Each pass is a module that exports a
 * `Pass`: its name, its stage, which pages it applies to (read from the page's profile, never from the HTML) and how
 * it runs. PASSES (index.ts) is the pipeline: one ordered list, run stage by stage.
 */
import type { ParentNode } from '../dom.js';
import type { PageProfile } from '../profile.js';

/**
 * Where in selection a pass runs:
 * - `pick`: inside the scorer's pick, after its conditional prune (see `extractMainContent`);
 * - `region`: on a page widened to its `<main>` region or its body, or a thread widened to its posts (see select.ts);
 * - `content`: on whatever was selected, before it is rendered (see `formatPage`).
 */
export type Stage = 'pick' | 'region' | 'content';

export interface PassContext {
  /** The content the pass works on, changed in place (the roots themselves stay). */
  roots: ParentNode[];
  profile: PageProfile;
}

export interface Pass {
  readonly name: string;
  readonly stage: Stage;
  /** Whether the pass runs on a page with this profile. */
  appliesTo(profile: PageProfile): boolean;
  run(ctx: PassContext): void;
}

/** For passes that apply to every page. */
export const everyPage = (): boolean => true;
