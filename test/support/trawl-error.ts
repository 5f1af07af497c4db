/** Awaits work that must fail and returns its TrawlError (failing the test if it succeeds or throws something else). */
import { expect } from '@jest/globals';
import { TrawlError } from '#contracts';

export async function expectTrawlError(work: Promise<unknown>): Promise<TrawlError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(TrawlError);
    return error as TrawlError;
  }
  throw new Error('expected the work to fail with a TrawlError');
}
