// turndown-plugin-gfm ships no types; only the plugin entry points are used.
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  type Plugin = (service: TurndownService) => void;
  export const gfm: Plugin;
  export const tables: Plugin;
  export const strikethrough: Plugin;
  export const taskListItems: Plugin;
  export const highlightedCodeBlock: Plugin;
  const all: { gfm: Plugin; tables: Plugin; strikethrough: Plugin; taskListItems: Plugin; highlightedCodeBlock: Plugin };
  export default all;
}
