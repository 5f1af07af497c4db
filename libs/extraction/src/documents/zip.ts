/**
 * A guard for ZIP containers (DOCX) before a parser unpacks them: the central directory is read, the declared sizes
 * must sum within the limit, and every part is inflated here with its declared size as a hard cap — so a part that
 * lies about its size (a zip bomb) fails at the cap instead of unpacking gigabytes. Parts come back by name.
 */
import zlib from 'node:zlib';
import { ErrorCode, TrawlError } from '#contracts';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** More parts than any real DOCX holds. */
const MAX_ENTRIES = 10_000;

const broken = (why: string): TrawlError => new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, `The document is not a readable ZIP container (${why})`, 'permanent');

/** Every part of the archive, inflated within its declared size; TOO_LARGE when the parts exceed `maxUnpackedBytes`. */
export function unpackZip(bytes: Uint8Array, maxUnpackedBytes: number): Map<string, Buffer> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw broken('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw broken(`${count} parts`);
  const parts = new Map<string, Buffer>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) throw broken('a damaged central directory');
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    const local = buf.readUInt32LE(at + 42);
    at = next;
    if (compressed === 0xffffffff || size === 0xffffffff) throw broken('ZIP64 sizes');
    total += size;
    if (total > maxUnpackedBytes) {
      throw new TrawlError(ErrorCode.TOO_LARGE, `The document unpacks to more than the ${maxUnpackedBytes}-byte limit`, 'permanent');
    }
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL) throw broken('a damaged part header');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressed > buf.length) throw broken('a truncated part');
    const data = buf.subarray(start, start + compressed);
    if (name.endsWith('/')) continue;
    parts.set(name, inflate(data, method, size, name));
  }
  return parts;
}

function inflate(data: Buffer, method: number, size: number, name: string): Buffer {
  if (method === 0) return data;
  if (method !== 8) throw broken(`part ${name.slice(0, 80)} uses compression method ${method}`);
  let out: Buffer;
  try {
    // One byte over the declared size is enough to catch a part that unpacks to more than it says.
    out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, size + 1) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw broken(`part ${name.slice(0, 80)} unpacks past its declared size`);
    throw broken(`part ${name.slice(0, 80)} does not inflate`);
  }
  if (out.length !== size) throw broken(`part ${name.slice(0, 80)} unpacks past its declared size`);
  return out;
}
