/**
 * The WebSocket transport of the Firecrawl watcher, on the gateway's own HTTP server: an upgrade of
 * `/v2/crawl/{id}`, `/v2/batch/scrape/{id}` (or v1's `/v1/crawl/{id}`) is accepted with the subprotocol the client
 * offered (the SDK offers its API key, and a browser's or undici's WebSocket fails unless one is echoed) and handed to
 * FirecrawlWatchService. Other upgrades are a 404. Bounds: client messages of 4 KiB at most (a watcher sends none that
 * matter), a ping every 30 s and a connection that did not answer the last one dropped, and a client that reads too
 * slowly (more than 16 MiB waiting) closed with 1013.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocket, WebSocketServer } from 'ws';
import { ErrorCode } from '#contracts';
import { apiKeyFrom } from '../http/api-key.guard.js';
import { CLOSE, type WatchPeer } from './watch-feed.js';
import { FirecrawlWatchService } from './firecrawl-watch.service.js';

const WATCH_PATH = /^\/v[12]\/(?:crawl|batch\/scrape)\/([^/?#]+)\/?(?:\?.*)?$/;
const MAX_CLIENT_MESSAGE = 4096;
const PING_MS = 30_000;
const MAX_BUFFERED = 16 * 1024 * 1024;

@Injectable()
export class FirecrawlWatchSocket implements OnApplicationBootstrap, OnApplicationShutdown {
  private wss: WebSocketServer | undefined;
  private server: Server | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private readonly alive = new WeakSet<WebSocket>();
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly watchers: FirecrawlWatchService,
  ) {}

  onApplicationBootstrap(): void {
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_CLIENT_MESSAGE,
      perMessageDeflate: false,
      handleProtocols: (protocols) => protocols.values().next().value ?? false,
    });
    this.server.on('upgrade', this.onUpgrade);
    this.pinger = setInterval(() => this.ping(), PING_MS);
    this.pinger.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.pinger);
    this.server?.off('upgrade', this.onUpgrade);
    for (const ws of this.wss?.clients ?? []) ws.terminate();
    this.wss?.close();
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const match = WATCH_PATH.exec(request.url ?? '');
    if (!match || !this.watchers.enabled || !this.wss) {
      // In the API's error shape, as any route that does not exist.
      const body = JSON.stringify({ error: { code: ErrorCode.NOT_FOUND, message: 'No WebSocket is served at this path (the Firecrawl watcher is /v2/crawl/{id} and /v2/batch/scrape/{id})' } });
      socket.end(`HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    const id = decodeURIComponent(match[1]);
    const key = keyOf(request);
    this.wss.handleUpgrade(request, socket, head, (ws) => this.connected(ws, key, id));
  }

  private connected(ws: WebSocket, key: string | undefined, id: string): void {
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('error', () => ws.terminate());
    const peer = peerOf(ws);
    let leave: (() => void) | undefined;
    let closed = false;
    ws.on('close', () => {
      closed = true;
      leave?.();
    });
    this.watchers.watch(key, id, peer).then(
      (watching) => {
        leave = watching?.leave;
        if (closed) leave?.();
      },
      () => peer.close(CLOSE.internal, 'internal error'),
    );
  }

  private ping(): void {
    for (const ws of this.wss?.clients ?? []) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}

/** The key a watcher carries: its subprotocol (the SDK's way), else `Authorization: Bearer` or `x-api-key`. */
function keyOf(request: IncomingMessage): string | undefined {
  const offered = request.headers['sec-websocket-protocol']?.split(',')[0]?.trim();
  if (offered) return offered;
  try {
    return apiKeyFrom(request.headers);
  } catch {
    return undefined;
  }
}

function peerOf(ws: WebSocket): WatchPeer {
  return {
    send(text) {
      if (ws.readyState !== WebSocket.OPEN) return false;
      if (ws.bufferedAmount > MAX_BUFFERED) {
        ws.close(CLOSE.tooSlow, closeReason(CLOSE.tooSlow, 'too slow: messages are not being read; poll the status pages'));
        return false;
      }
      ws.send(text);
      return true;
    },
    close(code, reason) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, closeReason(code, reason));
    },
  };
}

/**
 * The close reason as Firecrawl's server writes it, a message in JSON (`{"type":"done"}`, or `{"type":"error","error"}`):
 * the v1 client reads it as one. A close reason holds 123 bytes at most, so a long error is cut inside the JSON.
 */
export function closeReason(code: number, reason: string): string {
  if (code === CLOSE.done) return JSON.stringify({ type: 'done' });
  let error = reason;
  let text = JSON.stringify({ type: 'error', error });
  while (Buffer.byteLength(text) > 123) {
    error = error.slice(0, -1);
    text = JSON.stringify({ type: 'error', error });
  }
  return text;
}
