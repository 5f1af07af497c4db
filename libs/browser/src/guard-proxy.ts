/**
 * A per-job forward proxy on 127.0.0.1 that every request of a browser context goes through, so the SSRF policy
 * sees each hop Chromium makes — redirects and WebSockets included, which Playwright's `route()` never shows.
 * It connects to the address it checked (pinned), or chains to the job's upstream (geolocation) proxy.
 *
 * Failures are answered so the page layer can tell them apart: plain-HTTP answers carry `x-trawl-guard: <failure>`,
 * and every failure is also recorded per host (CONNECT failures reach Chromium only as ERR_TUNNEL_CONNECTION_FAILED).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ProxyInfo } from '#contracts';
import type { AddressKind } from '#fetch';
import { bareHost, type HostPolicy } from './host-policy.js';

export type GuardFailureKind = 'blocked' | 'dns' | 'connect' | 'proxy';

export interface GuardFailure {
  kind: GuardFailureKind;
  addressKind?: AddressKind;
  /** errno code or upstream status, for messages. */
  detail: string;
}

export const GUARD_HEADER = 'x-trawl-guard';

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

interface Upstream {
  host: string;
  port: number;
  authorization: string | null;
}

function parseUpstream(proxy: ProxyInfo): Upstream {
  const url = new URL(proxy.server);
  if (url.protocol !== 'http:') throw new Error(`unsupported proxy scheme ${url.protocol} (only http://)`);
  const username = proxy.username ?? decodeURIComponent(url.username);
  const password = proxy.password ?? decodeURIComponent(url.password);
  return {
    host: bareHost(url.hostname),
    port: Number(url.port || 80),
    authorization: username || password ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` : null,
  };
}

function splitAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  return match ? { host: bareHost(match[1]), port: Number(match[2]) } : null;
}

export class GuardProxy {
  private readonly server: http.Server;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  private readonly sockets = new Set<Duplex>();
  private readonly failures = new Map<string, GuardFailure>();
  /**
   * Written into every refusal the guard answers itself, so that a document the browser shows can be recognised as
   * the guard's answer (the page sent itself to a refused host) without trusting a header a site could send too.
   */
  readonly refusalMark = `trawl-guard-${randomBytes(12).toString('hex')}`;
  private policy: HostPolicy | null = null;
  private upstream: Upstream | null = null;
  private port = 0;

  private constructor() {
    this.server = http.createServer((req, res) => this.forward(req, res));
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.tunnel(req, socket, head));
    this.server.on('connection', (socket: net.Socket) => this.track(socket));
    this.server.on('clientError', (_error, socket: Duplex) => socket.destroy());
  }

  /** Listens on 127.0.0.1; refuses everything until `assign()` gives it a job's policy. */
  static async start(): Promise<GuardProxy> {
    const guard = new GuardProxy();
    await new Promise<void>((resolve, reject) => {
      guard.server.once('error', reject);
      guard.server.listen(0, '127.0.0.1', () => resolve());
    });
    guard.port = (guard.server.address() as AddressInfo).port;
    guard.server.on('error', () => undefined); // a listening server's late errors must not crash the worker
    return guard;
  }

  /** Binds the guard to one job: its SSRF policy and optional upstream proxy. Throws for a proxy it cannot chain to. */
  assign(policy: HostPolicy, upstream: ProxyInfo | null): void {
    this.upstream = upstream ? parseUpstream(upstream) : null;
    this.policy = policy;
  }

  /**
   * Unbinds the guard from its job between two jobs of a reused context: it refuses everything again, forgets the
   * job's failures, and drops every connection — Chromium's keep-alive connections to the guard and its CONNECT
   * tunnels were admitted under the old job's policy (and pinned to its DNS answers), so none may carry the next
   * job's requests.
   */
  release(): void {
    this.policy = null;
    this.upstream = null;
    this.failures.clear();
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
  }

  /** The proxy URL for `browser.newContext({ proxy })`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The last failure met on `host` (bare, lower case), if any. */
  failureFor(host: string): GuardFailure | undefined {
    return this.failures.get(bareHost(host).toLowerCase());
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private record(host: string, failure: GuardFailure): GuardFailure {
    this.failures.set(bareHost(host).toLowerCase(), failure);
    return failure;
  }

  /** Checks the host; returns the address to dial (or null for the upstream to resolve), or the failure. */
  private async admit(host: string): Promise<{ address: string | null } | GuardFailure> {
    if (!this.policy) return { kind: 'blocked', detail: 'no job assigned' }; // a warm context must not fetch
    const decision = await this.policy.decide(host);
    if (decision.verdict === 'block') return this.record(host, { kind: 'blocked', addressKind: decision.kind, detail: decision.kind });
    if (decision.verdict === 'dns-failed') return this.record(host, { kind: 'dns', detail: decision.code });
    return { address: decision.address };
  }

  /** Plain-HTTP proxying: `GET http://host/path`. */
  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    const refuse = (status: number, failure: GuardFailure): void => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(status, { [GUARD_HEADER]: failure.kind, 'content-type': 'text/plain', connection: 'close' });
      res.end(`Refused by the render guard: ${failure.kind} (${this.refusalMark})`);
    };
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      refuse(400, { kind: 'connect', detail: 'malformed proxy request' });
      return;
    }
    req.on('error', () => res.destroy());
    this.admit(target.hostname).then((admitted) => {
      if ('kind' in admitted) {
        refuse(admitted.kind === 'blocked' ? 403 : 502, admitted);
        return;
      }
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      }
      const up = this.upstream;
      if (up?.authorization) headers['proxy-authorization'] = up.authorization;
      const outgoing = http.request({
        host: up ? up.host : (admitted.address as string),
        port: up ? up.port : Number(target.port || 80),
        method: req.method,
        path: up ? target.href : `${target.pathname}${target.search}`,
        headers,
        setHost: false,
        agent: this.agent,
      });
      outgoing.on('response', (incoming) => {
        if (up && incoming.statusCode === 407) {
          incoming.resume();
          refuse(502, this.record(target.hostname, { kind: 'proxy', detail: 'upstream proxy answered 407' }));
          return;
        }
        const raw: string[] = [];
        for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
          if (!HOP_BY_HOP.has(incoming.rawHeaders[i].toLowerCase())) raw.push(incoming.rawHeaders[i], incoming.rawHeaders[i + 1]);
        }
        res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, raw);
        incoming.pipe(res);
        incoming.on('error', () => res.destroy());
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const kind: GuardFailureKind = up ? 'proxy' : 'connect';
        refuse(502, this.record(target.hostname, { kind, detail: error.code ?? 'error' }));
      });
      req.pipe(outgoing);
    }, () => res.destroy());
  }

  /** CONNECT tunnelling (https:, wss:). */
  private tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): void {
    this.track(client);
    client.on('error', () => client.destroy());
    const authority = splitAuthority(req.url ?? '');
    const fail = (failure: GuardFailure): void => {
      const status = failure.kind === 'blocked' ? '403 Forbidden' : '502 Bad Gateway';
      client.end(`HTTP/1.1 ${status}\r\n${GUARD_HEADER}: ${failure.kind}\r\nconnection: close\r\n\r\n`);
    };
    if (!authority) {
      fail({ kind: 'connect', detail: 'malformed CONNECT' });
      return;
    }
    const splice = (server: Duplex, serverHead: Buffer | null): void => {
      this.track(server);
      if (client.destroyed) {
        server.destroy();
        return;
      }
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (serverHead?.length) client.write(serverHead);
      if (head.length) server.write(head);
      server.pipe(client);
      client.pipe(server);
      server.on('error', () => client.destroy());
      server.on('close', () => client.destroy());
      client.on('close', () => server.destroy());
    };
    this.admit(authority.host).then((admitted) => {
      if ('kind' in admitted) {
        fail(admitted);
        return;
      }
      const up = this.upstream;
      if (!up) {
        const socket = net.connect({ host: admitted.address as string, port: authority.port });
        let connected = false;
        socket.once('connect', () => {
          connected = true;
          splice(socket, null);
        });
        socket.on('error', (error: NodeJS.ErrnoException) => {
          if (!connected) fail(this.record(authority.host, { kind: 'connect', detail: error.code ?? 'error' }));
          socket.destroy();
        });
        return;
      }
      const headers: http.OutgoingHttpHeaders = { host: req.url };
      if (up.authorization) headers['proxy-authorization'] = up.authorization;
      const connectReq = http.request({ host: up.host, port: up.port, method: 'CONNECT', path: req.url, headers, agent: false });
      connectReq.once('connect', (answer, socket, upstreamHead) => {
        if (answer.statusCode === 200) {
          splice(socket, upstreamHead);
          return;
        }
        socket.destroy();
        // 407 or an unreachable proxy is the proxy's fault; 502/504 means it could not reach the target.
        const kind: GuardFailureKind = answer.statusCode === 502 || answer.statusCode === 504 ? 'connect' : 'proxy';
        fail(this.record(authority.host, { kind, detail: `upstream proxy answered ${answer.statusCode}` }));
      });
      connectReq.on('error', (error: NodeJS.ErrnoException) => {
        if (client.destroyed) return;
        fail(this.record(authority.host, { kind: 'proxy', detail: error.code ?? 'error' }));
      });
      connectReq.end();
    }, () => client.destroy());
  }
}
