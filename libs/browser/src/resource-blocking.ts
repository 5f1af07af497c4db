/**
 * Aborts image, media and font requests of a page when no screenshot needs them. Done with the DevTools Fetch
 * domain filtered by resource type, so only those requests pause (and are failed at once); Playwright's `route()`
 * would pause every request of the page for a round trip through this process, which cost more than it saved.
 */
import type { CDPSession } from 'playwright-core';

const BLOCKED_TYPES = ['Image', 'Media', 'Font'] as const;

export async function blockHeavyResources(session: CDPSession): Promise<void> {
  await new ResourceBlocking(session).set(true);
}

/** Blocking that can be switched per job on a page that serves several jobs (a reused tab). */
export class ResourceBlocking {
  private listening = false;
  private enabled = false;

  constructor(private readonly session: CDPSession) {}

  async set(block: boolean): Promise<void> {
    if (block === this.enabled) return;
    if (!block) {
      await this.session.send('Fetch.disable');
      this.enabled = false;
      return;
    }
    if (!this.listening) {
      this.listening = true;
      this.session.on('Fetch.requestPaused', (event) => {
        this.session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
      });
    }
    await this.session.send('Fetch.enable', {
      patterns: BLOCKED_TYPES.map((resourceType) => ({ urlPattern: '*', resourceType, requestStage: 'Request' as const })),
    });
    this.enabled = true;
  }
}
