/** A fixture response of `bytes` bytes of HTML-ish text, streamed in 1 MiB chunks with back-pressure (a huge page). */
import type { ServerResponse } from 'node:http';

export function sendBigBody(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(bytes) });
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  let sent = 0;
  const pump = (): void => {
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  // The client gives up on purpose (a size cap): not an error of the fixture.
  res.on('error', () => undefined);
  pump();
}
