// When a page counts as fetching content after load, from the CDP events in the order a loaded machine delivers them.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import type { CDPSession } from 'playwright-core';
import { NetworkActivity } from './network-activity.js';

function tracked(): { activity: NetworkActivity; cdp: EventEmitter } {
  const cdp = new EventEmitter();
  return { activity: new NetworkActivity(cdp as unknown as CDPSession), cdp };
}

const sent = (cdp: EventEmitter, requestId: string, type: string): boolean => cdp.emit('Network.requestWillBeSent', { requestId, type });

describe('NetworkActivity', () => {
  it('does not count a script the load handler asked for as fetching when the browser refused it, even if the request reached us before the load', () => {
    const { activity, cdp } = tracked();
    sent(cdp, 'ads', 'Script');
    activity.markLoaded();
    cdp.emit('Network.loadingFailed', { requestId: 'ads', errorText: 'net::ERR_BLOCKED_BY_CSP', blockedReason: 'csp' });
    expect(activity.activeSinceLoad).toBe(false);
    expect(activity.pending).toBe(0);
  });

  it('counts a fetch in flight at load as fetching, after it answered too', () => {
    const { activity, cdp } = tracked();
    sent(cdp, 'api', 'Fetch');
    activity.markLoaded();
    cdp.emit('Network.loadingFinished', { requestId: 'api' });
    expect(activity.activeSinceLoad).toBe(true);
  });

  it('counts a fetch in flight at load that failed on the network as fetching (the page may retry it)', () => {
    const { activity, cdp } = tracked();
    sent(cdp, 'api', 'XHR');
    activity.markLoaded();
    cdp.emit('Network.loadingFailed', { requestId: 'api', errorText: 'net::ERR_CONNECTION_REFUSED' });
    expect(activity.activeSinceLoad).toBe(true);
  });

  it('counts a script started after load unless it is refused, and never a favicon or an image', () => {
    const { activity, cdp } = tracked();
    activity.markLoaded();
    sent(cdp, 'icon', 'Other');
    sent(cdp, 'img', 'Image');
    expect(activity.activeSinceLoad).toBe(false);
    sent(cdp, 'ads', 'Script');
    expect(activity.activeSinceLoad).toBe(true);
    cdp.emit('Network.loadingFailed', { requestId: 'ads', errorText: 'net::ERR_BLOCKED_BY_CLIENT' });
    expect(activity.activeSinceLoad).toBe(false);
    sent(cdp, 'app', 'Script');
    cdp.emit('Network.loadingFinished', { requestId: 'app' });
    expect(activity.activeSinceLoad).toBe(true);
  });

  it('holds a page quiet since load for the brief window only', async () => {
    const { activity, cdp } = tracked();
    sent(cdp, 'ads', 'Script');
    activity.markLoaded();
    cdp.emit('Network.loadingFailed', { requestId: 'ads', errorText: 'net::ERR_BLOCKED_BY_CSP', blockedReason: 'csp' });
    const started = performance.now();
    await expect(activity.waitForQuiet(10_000, started + 20_000, 20)).resolves.toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
