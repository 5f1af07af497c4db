/**
 * The nesting cap of the format pipeline. The pipeline walks the tree recursively; past a few thousand levels it
 * overflows the stack and can only return an empty page, and parsing itself turns quadratic (see parseHtmlWithin).
 * Browsers never build such trees (Chromium's parser stops nesting at 512 levels), so a page deeper than
 * MAX_NESTING_DEPTH is hostile or broken, and failing it beats charging for empty output.
 */

/** Twice what Chromium ever nests; well below where the pipeline's recursion fails (~2,500 on the main thread). */
export const MAX_NESTING_DEPTH = 1_024;

export const TOO_DEEP_MESSAGE = `The page nests elements more than ${MAX_NESTING_DEPTH} levels deep; its content cannot be extracted`;
