import { describe, expect, it } from '@jest/globals';
import { HEADLESS_SHELL_PATH, renderExecutable } from './render-executable.js';

describe('renderExecutable', () => {
  it('takes RENDER_CHROMIUM_PATH when it is set, installed shell or not', () => {
    expect(renderExecutable('/opt/chrome/chrome', '/usr/bin/chromium', () => true)).toBe('/opt/chrome/chrome');
  });

  it('prefers the headless shell when it is installed, else CHROMIUM_PATH', () => {
    expect(renderExecutable(undefined, '/usr/bin/chromium', (f) => f === HEADLESS_SHELL_PATH)).toBe(HEADLESS_SHELL_PATH);
    expect(renderExecutable(undefined, '/usr/local/bin/chromium', () => false)).toBe('/usr/local/bin/chromium');
  });
});
