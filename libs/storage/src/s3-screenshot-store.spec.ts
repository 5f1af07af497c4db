import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { presignS3Url, S3ScreenshotStore } from './s3-screenshot-store.js';

describe('presignS3Url', () => {
  it('matches the AWS Signature Version 4 presigned-URL example (GET examplebucket/test.txt)', () => {
    const url = presignS3Url({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      expiresSeconds: 86400,
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
        '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host' +
        '&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });
});

describe('S3ScreenshotStore', () => {
  it('uploads with a presigned PUT (path style) and links with a presigned GET; the secret never appears', async () => {
    const objects = new Map<string, Buffer>();
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'PUT' && /X-Amz-Signature=/.test(req.url ?? '')) {
          objects.set(path, Buffer.concat(chunks));
          res.writeHead(200).end();
        } else res.writeHead(403).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const store = new S3ScreenshotStore({ endpoint, bucket: 'shots', region: 'eu-west-1', accessKeyId: 'AK', secretAccessKey: 'very-secret', pathStyle: true, prefix: 'trawl/' });
      const key = await store.put(Buffer.from('png-bytes'));
      expect([...objects.keys()]).toEqual([`/shots/trawl/${key}`]);
      expect(objects.get(`/shots/trawl/${key}`)!.toString()).toBe('png-bytes');
      const link = store.urlFor(key, 3_600_000);
      expect(link.startsWith(`${endpoint}/shots/trawl/${key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&`)).toBe(true);
      expect(link).toContain('X-Amz-Expires=3600');
      expect(link).not.toContain('very-secret');
      const failing = new S3ScreenshotStore({ endpoint, bucket: 'x', region: 'r', accessKeyId: 'AK', secretAccessKey: 's', pathStyle: true });
      objects.clear();
      server.removeAllListeners('request');
      server.on('request', (_q, res) => res.writeHead(403).end('<Error>denied</Error>'));
      await expect(failing.put(Buffer.from('x'))).rejects.toThrow('S3 upload of a screenshot failed with HTTP 403');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
