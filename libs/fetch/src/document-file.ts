/**
 * A captured page read from disk (`serp:parse`, `maps:parse`): gunzipped when gzip, then decoded by the crawler's
 * one decoder, so a page reads the same from a file as it did over the network.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { decodeBody, type DecodedText } from './charset.js';

export async function readDocumentFile(path: string): Promise<DecodedText> {
  const raw = await readFile(path);
  const bytes = raw.length > 2 && raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
  return decodeBody(bytes);
}
