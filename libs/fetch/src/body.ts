/**
 * Reads a response body into memory with a hard cap on the *decompressed* size: gzip, deflate (zlib-wrapped or raw)
 * and brotli are decoded as a stream and the read stops at the first chunk past the cap, so a decompression bomb
 * costs at most `maxBytes` plus one zlib chunk of memory.
 */
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { ErrorCode, TrawlError } from '#contracts';

// Truncated streams are common on the web and browsers render them: flush what decoded instead of failing.
const ZLIB_OPTIONS: zlib.ZlibOptions = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/** TOO_LARGE for a body past `maxBytes`: one that declared more (refused at its headers), or one read past the cap. */
export function tooLargeError(maxBytes: number, declaredBytes?: number): TrawlError {
  const what = declaredBytes === undefined ? 'The response body exceeds' : `The response declares ${declaredBytes} bytes, more than`;
  return new TrawlError(ErrorCode.TOO_LARGE, `${what} the ${maxBytes}-byte limit`, 'permanent');
}

/** Drops a body we will not read: the connection is closed, and the abort error it emits is expected. */
export function discardBody(body: Readable): void {
  body.on('error', noop);
  body.destroy();
}

const noop = (): void => {};

/** Content-Encoding tokens in the order they must be undone (last applied first); 'identity' dropped. */
export function parseContentEncoding(header: string | undefined): string[] {
  if (!header) return [];
  const codings: string[] = [];
  for (const token of header.split(',')) {
    const coding = token.trim().toLowerCase();
    if (coding !== '' && coding !== 'identity') codings.unshift(coding);
  }
  return codings;
}

function decompressorFor(coding: string): Transform {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(ZLIB_OPTIONS);
    case 'br':
      return zlib.createBrotliDecompress(BROTLI_OPTIONS);
    case 'deflate':
      return new InflateAuto();
    default:
      throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, `Unsupported content encoding "${coding.slice(0, 40)}"`, 'permanent');
  }
}

/**
 * Reads `body` fully, undoing `codings` (from parseContentEncoding), and rejects with TOO_LARGE as soon as the
 * decoded size passes `maxBytes`. The source is destroyed on any failure so its connection is not reused half-read.
 * Event-driven rather than `for await`: the async iterator costs more than the read itself for small pages.
 */
export function readBody(body: Readable, codings: readonly string[], maxBytes: number): Promise<Buffer> {
  let stream: Readable = body;
  try {
    for (const coding of codings) {
      // pipeline destroys every stage when one fails; errors surface as 'error' on the last stage below.
      stream = pipeline(stream, decompressorFor(coding), noop);
    }
  } catch (error) {
    discardBody(body);
    return Promise.reject(error);
  }
  const compressed = codings.length > 0;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const fail = (error: unknown): void => {
      stream.off('data', onData);
      discardBody(body);
      if (stream !== body) discardBody(stream);
      reject(error instanceof TrawlError ? error : decodingError(error, compressed));
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > maxBytes) fail(tooLargeError(maxBytes));
      else chunks.push(chunk);
    };
    stream.on('data', onData);
    stream.once('error', fail);
    stream.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total)));
  });
}

/** zlib failures are a broken body (permanent); anything else came from the socket and is rethrown as-is. */
function decodingError(error: unknown, compressed: boolean): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  // zlib reports Z_DATA_ERROR and friends; brotli reports ERR__ERROR_FORMAT_* (and ERR_BROTLI_* for setup errors).
  if (compressed && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_') || code.startsWith('ERR_BROTLI'))) {
    return new TrawlError(ErrorCode.NETWORK_ERROR, 'The response body could not be decompressed', 'permanent');
  }
  return error;
}

/**
 * `Content-Encoding: deflate` is meant to be zlib-wrapped, but some servers send raw deflate; pick the right
 * inflater from the first two bytes, as browsers do.
 */
class InflateAuto extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.inner === null) {
      const zlibHeader = chunk.length >= 2 && (chunk[0] & 0x0f) === 8 && ((chunk[0] << 8) | chunk[1]) % 31 === 0;
      const inner = zlibHeader ? zlib.createInflate(ZLIB_OPTIONS) : zlib.createInflateRaw(ZLIB_OPTIONS);
      inner.on('data', (data: Buffer) => this.push(data));
      inner.on('error', (error) => this.destroy(error));
      this.inner = inner;
    }
    this.inner.write(chunk, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    if (this.inner === null) {
      callback();
      return;
    }
    this.inner.once('end', () => callback());
    this.inner.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(error);
  }
}
