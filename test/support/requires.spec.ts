/** The corpus is required under CI: a missing one fails the run instead of skipping its tests. */
import { describe, expect, it, jest } from '@jest/globals';
import { REPO_ROOT } from './env.js';
import { corpusPresent, toolPresent } from './requires.js';

const absent = `${REPO_ROOT}/../no-such-corpus-dir`;

describe('corpusPresent', () => {
  it('is true for a path that exists, in CI or not', () => {
    expect(corpusPresent(REPO_ROOT, 'a spec', { CI: 'true' })).toBe(true);
    expect(corpusPresent(REPO_ROOT, 'a spec', {})).toBe(true);
  });

  it('throws under CI=true when the corpus is absent, naming the path', () => {
    expect(() => corpusPresent(absent, 'serp-search e2e', { CI: 'true' })).toThrow(/serp-search e2e needs .*no-such-corpus-dir.*CI=true/);
  });

  it('skips with a warning outside CI', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(corpusPresent(absent, 'serp-search e2e', {})).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^SKIPPED serp-search e2e: .*no-such-corpus-dir is absent/));
    } finally {
      warn.mockRestore();
    }
  });
});

describe('toolPresent', () => {
  it('says why a test is skipped', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(toolPresent(false, 'the kustomize render', 'kubectl is not on PATH')).toBe(false);
      expect(warn).toHaveBeenCalledWith('SKIPPED the kustomize render: kubectl is not on PATH');
      expect(toolPresent(true, 'x', 'y')).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });
});
