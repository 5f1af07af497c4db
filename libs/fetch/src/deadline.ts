/**
 * The time budget of one fetch, combined with the caller's AbortSignal. It is an EventEmitter-style abort signal
 * (undici accepts those) rather than an AbortController per request: on the hot path, EventTarget listeners and
 * AbortSignal allocation cost more than the rest of our per-request work.
 */
import { EventEmitter } from 'node:events';
import { timeoutError } from './fetch-errors.js';

export class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  /** True when our own timer fired (as opposed to the caller aborting). */
  timedOut = false;
  private readonly timer: NodeJS.Timeout;
  private onCallerAbort: (() => void) | null = null;

  constructor(
    timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    super();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.abort(timeoutError(timeoutMs));
    }, timeoutMs);
    if (caller) {
      if (caller.aborted) {
        this.abort(caller.reason);
      } else {
        this.onCallerAbort = () => this.abort(caller.reason);
        caller.addEventListener('abort', this.onCallerAbort, { once: true });
      }
    }
  }

  /** Settles like `work`, or rejects with the abort reason as soon as the deadline passes or the caller aborts. */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.aborted) {
      work.catch(noop);
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(this.reason);
      this.once('abort', onAbort);
      work.then(
        (value) => {
          this.off('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.off('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.caller && this.onCallerAbort) this.caller.removeEventListener('abort', this.onCallerAbort);
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new Error('aborted');
    this.emit('abort', this.reason);
  }
}

const noop = (): void => {};
