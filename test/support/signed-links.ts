/** A signed link (screenshot, PDF) with its signature's first digit changed, whatever that digit was. */
export function tamperedLink(link: string): string {
  return link.replace(/signature=([0-9a-f])/, (_, digit: string) => `signature=${digit === '0' ? '1' : '0'}`);
}
