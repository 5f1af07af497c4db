/**
 * Screenshots in an S3-compatible bucket (AWS S3, MinIO, R2, …): uploaded with a presigned PUT and handed out as
 * presigned GET links (AWS Signature Version 4, query-string form), so no SDK is needed and the secret key never
 * leaves this process. Expired objects are the bucket's business: set a lifecycle rule on it (the links stop working
 * at their expiry either way).
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { CAPTURE_TYPES, type CaptureKind, type ScreenshotStore } from './screenshot-store.js';

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` (MinIO and most S3-compatible stores) instead of `https://bucket.endpoint/key`. */
  pathStyle: boolean;
  /** Key prefix inside the bucket. */
  prefix?: string;
}

/** RFC 3986 encoding as SigV4 wants it. */
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/** A SigV4 presigned URL for `method` on `url` (only the host header is signed; the payload is UNSIGNED-PAYLOAD). */
export function presignS3Url(options: {
  method: 'GET' | 'PUT';
  url: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  expiresSeconds: number;
  now: Date;
}): string {
  const url = new URL(options.url);
  const amzDate = options.now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${options.region}/s3/aws4_request`;
  const params: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${options.accessKeyId}/${scope}`,
    'X-Amz-Date': amzDate,
    'X-Amz-Expires': String(options.expiresSeconds),
    'X-Amz-SignedHeaders': 'host',
  };
  const query = Object.keys(params)
    .sort()
    .map((k) => `${enc(k)}=${enc(params[k])}`)
    .join('&');
  const canonicalPath = url.pathname.split('/').map((segment) => enc(decodeURIComponent(segment))).join('/');
  const canonicalRequest = [options.method, canonicalPath, query, `host:${url.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, day), options.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `${url.origin}${canonicalPath}?${query}&X-Amz-Signature=${signature}`;
}

export class S3ScreenshotStore implements ScreenshotStore {
  constructor(
    private readonly opts: S3Options,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(bytes: Buffer, kind: CaptureKind = 'png'): Promise<string> {
    const key = `${randomUUID()}.${kind}`;
    const response = await fetch(this.presign('PUT', key, 300), {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: { 'content-type': CAPTURE_TYPES[kind] },
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    // The status only: an S3 error body may echo request details.
    if (!response.ok) throw new Error(`S3 upload of a screenshot failed with HTTP ${response.status}`);
    return key;
  }

  /** A presigned GET link valid for `ttlMs` (SigV4 allows at most 7 days). */
  urlFor(key: string, ttlMs: number): string {
    return this.presign('GET', key, Math.max(1, Math.min(604_800, Math.floor(ttlMs / 1000))));
  }

  private presign(method: 'GET' | 'PUT', key: string, expiresSeconds: number): string {
    const endpoint = new URL(this.opts.endpoint);
    const objectKey = `${this.opts.prefix ?? ''}${key}`;
    const url = this.opts.pathStyle
      ? `${endpoint.origin}/${this.opts.bucket}/${objectKey}`
      : `${endpoint.protocol}//${this.opts.bucket}.${endpoint.host}/${objectKey}`;
    return presignS3Url({ method, url, region: this.opts.region, accessKeyId: this.opts.accessKeyId, secretAccessKey: this.opts.secretAccessKey, expiresSeconds, now: this.now() });
  }
}

/** The S3 store of the configuration (SCREENSHOT_STORE=s3; crossCheck made sure every setting is there). */
export function s3StoreFromConfig(c: {
  S3_ENDPOINT?: string;
  S3_BUCKET?: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE: boolean;
  S3_PREFIX: string;
}): S3ScreenshotStore {
  return new S3ScreenshotStore({
    endpoint: c.S3_ENDPOINT ?? '',
    bucket: c.S3_BUCKET ?? '',
    region: c.S3_REGION,
    accessKeyId: c.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: c.S3_SECRET_ACCESS_KEY ?? '',
    pathStyle: c.S3_FORCE_PATH_STYLE,
    prefix: c.S3_PREFIX,
  });
}
