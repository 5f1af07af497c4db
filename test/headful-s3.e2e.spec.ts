/** `/headful-browser` screenshots in an S3-compatible bucket (a loopback stand-in): uploaded by the worker, linked presigned. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkerRegistry } from '#queue';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

let trawl: Harness;
let site: FixtureServer;
let proxy: RecordingProxy;
let bucket: Server;
let endpoint: string;
const objects = new Map<string, Buffer>();

beforeAll(async () => {
  // Stores presigned PUTs, serves presigned GETs (the signature itself is checked against AWS's example in the unit tier).
  bucket = createServer((req, res) => {
    const [path, query = ''] = (req.url ?? '').split('?');
    if (!query.includes('X-Amz-Signature=')) return void res.writeHead(403).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT') {
        objects.set(path, Buffer.concat(chunks));
        return void res.writeHead(200).end();
      }
      const object = objects.get(path);
      if (!object) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(object);
    });
  });
  await new Promise<void>((resolve) => bucket.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(bucket.address() as AddressInfo).port}`;
  site = await startFixtureServer({ '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  proxy = await startRecordingProxy();
  trawl = await startHarness({
    STANDALONE_WORKERS: 'headful',
    RESIDENTIAL_PROXIES: `*=${proxy.url}`,
    SCREENSHOT_STORE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: 'trawl-shots',
    S3_ACCESS_KEY_ID: 'test-access-key',
    S3_SECRET_ACCESS_KEY: 'test-secret-key-do-not-leak',
    SCREENSHOT_URL_TTL_MS: '3600000',
  });
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await proxy?.close();
  await new Promise((resolve) => bucket?.close(resolve));
});

describe('GET /headful-browser with SCREENSHOT_STORE=s3', () => {
  it('uploads the PNG to the bucket and returns a presigned link to it (any country via *)', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/headful-browser?urls=${encodeURIComponent(`${site.url}/a`)}&screenshot=true&country=jp`, key(account.apiKey));
    expect(res.status).toBe(200);
    const link: string = res.body.data[0].screenshot;
    expect(link.startsWith(`${endpoint}/trawl-shots/`)).toBe(true);
    expect(link).toMatch(/X-Amz-Expires=3600&.*X-Amz-Signature=[0-9a-f]{64}$/);
    expect(JSON.stringify(res.body)).not.toContain('test-secret-key-do-not-leak');
    const png = Buffer.from(await (await fetch(link)).arrayBuffer());
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(objects.size).toBe(1);
  });
});
