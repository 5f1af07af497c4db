/**
 * A keep-alive undici Agent that routes every connection through one forward proxy: absolute-form requests for
 * http targets, a CONNECT tunnel (then TLS to the target) for https. Written on undici's connector hook rather than
 * undici's ProxyAgent because that one retries a refused CONNECT in a tight loop when the proxy closes the socket
 * after its error status (proxy-chain does), and the request's abort signal cannot stop it.
 */
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { Agent, buildConnector } from 'undici';

export interface ProxyEndpoint {
  /** The proxy URL without credentials. */
  url: URL;
  /** `Basic …` for Proxy-Authorization, or null. */
  authorization: string | null;
}

export interface ProxyAgentOptions {
  connections: number;
  keepAliveTimeout: number;
  connectTimeout: number;
}

/**
 * A connection-level proxy failure (the proxy is unreachable, refused the tunnel or answered garbage). Its code is
 * our own: undici treats UND_ERR_SOCKET as retryable and would reconnect forever, but fails queued requests on this.
 */
export interface ProxyConnectError extends NodeJS.ErrnoException {
  code: 'ERR_TRAWL_PROXY';
  detail: string;
}

export function proxyConnectError(detail: string): ProxyConnectError {
  return Object.assign(new Error(`Proxy failure: ${detail}`), { code: 'ERR_TRAWL_PROXY' as const, detail });
}

const MAX_CONNECT_RESPONSE_BYTES = 16 * 1024;

/** undici's connector hook: (target, callback) => void. */
type Connector = Extract<NonNullable<Agent.Options['connect']>, (...args: never[]) => unknown>;

export function createProxyAgent(proxy: ProxyEndpoint, opts: ProxyAgentOptions): Agent {
  const tlsOverTunnel = buildConnector({ timeout: opts.connectTimeout });
  return new Agent({
    connections: opts.connections,
    keepAliveTimeout: opts.keepAliveTimeout,
    connect: ((target, callback) => {
      const done = once(callback);
      const socket = connectToProxy(proxy.url);
      const timer = setTimeout(() => {
        socket.destroy();
        done(proxyConnectError(`no connection within ${opts.connectTimeout} ms`), null);
      }, opts.connectTimeout);
      const onError = (error: NodeJS.ErrnoException): void => {
        clearTimeout(timer);
        done(proxyConnectError(`connection error (${error.code ?? 'unknown'})`), null);
      };
      // Once connected, undici (or the TLS socket wrapping this one) owns error handling; the no-op listener keeps a
      // late error on the raw socket from becoming an uncaught exception.
      const handOver = (): void => {
        socket.off('error', onError);
        socket.on('error', noop);
      };
      socket.once('error', onError);
      socket.once(proxy.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        if (target.protocol !== 'https:') {
          // Plain http: requests go to the proxy itself in absolute-form (see absoluteFormPath).
          clearTimeout(timer);
          handOver();
          socket.setNoDelay(true);
          done(null, socket);
          return;
        }
        const port = target.port || '443';
        const authority = `${net.isIPv6(target.hostname) ? `[${target.hostname}]` : target.hostname}:${port}`;
        openTunnel(socket, authority, proxy.authorization, (error) => {
          clearTimeout(timer);
          if (error) {
            socket.destroy();
            done(error, null);
            return;
          }
          handOver();
          tlsOverTunnel({ ...target, port, httpSocket: socket }, (tlsError, tlsSocket) => {
            if (tlsError) {
              socket.destroy();
              done(tlsError, null);
            } else {
              done(null, tlsSocket as Socket);
            }
          });
        });
      });
    }) satisfies Connector,
  });
}

const noop = (): void => {};

function connectToProxy(url: URL): Socket {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (url.protocol === 'https:') {
    return tls.connect({ host, port: Number(url.port || 443), servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] });
  }
  return net.connect({ host, port: Number(url.port || 80) });
}

/** Sends CONNECT and waits for a 2xx status line; anything else is the proxy refusing (e.g. 407, 502, 59x). */
function openTunnel(socket: Socket, authority: string, authorization: string | null, callback: (error: Error | null) => void): void {
  const done = once(callback);
  let received = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
    received = Buffer.concat([received, chunk]);
    const end = received.indexOf('\r\n\r\n');
    if (end === -1) {
      if (received.length > MAX_CONNECT_RESPONSE_BYTES) finish(proxyConnectError('oversized CONNECT response'));
      return;
    }
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(received.subarray(0, Math.min(end, 64)).toString('latin1'));
    const rest = received.subarray(end + 4);
    if (!status) {
      finish(proxyConnectError('malformed CONNECT response'));
    } else if (status[1][0] !== '2') {
      finish(proxyConnectError(`it answered ${status[1]} to CONNECT`));
    } else {
      if (rest.length > 0) socket.unshift(rest);
      finish(null);
    }
  };
  const onClose = (): void => finish(proxyConnectError('the proxy closed the connection during CONNECT'));
  const finish = (error: Error | null): void => {
    socket.off('data', onData);
    socket.off('close', onClose);
    done(error);
  };
  socket.on('data', onData);
  socket.once('close', onClose);
  const auth = authorization ? `Proxy-Authorization: ${authorization}\r\n` : '';
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}Proxy-Connection: keep-alive\r\n\r\n`);
}

/** The request-target for a plain-http request through a proxy (RFC 9112 absolute-form). */
export function absoluteFormPath(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}${url.search}`;
}

function once<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  let called = false;
  return (...args: A) => {
    if (called) return;
    called = true;
    fn(...args);
  };
}
