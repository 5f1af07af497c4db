import { describe, expect, it } from '@jest/globals';
import { closeReason } from './watch-socket.js';

describe('closeReason', () => {
  it('writes the close reason as Firecrawl does: a message in JSON', () => {
    expect(JSON.parse(closeReason(1000, 'done'))).toEqual({ type: 'done' });
    expect(JSON.parse(closeReason(1008, 'Job not found'))).toEqual({ type: 'error', error: 'Job not found' });
  });

  it('cuts a long error inside the JSON, within the 123 bytes a close reason holds', () => {
    const reason = closeReason(1011, 'é'.repeat(200));
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(JSON.parse(reason)).toEqual({ type: 'error', error: expect.stringMatching(/^é+$/) });
  });
});
