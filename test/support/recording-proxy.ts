/** A real forward proxy on loopback (proxy-chain) that records the requests it carries. */
import { Server as ProxyServer, type PrepareRequestFunctionOpts } from 'proxy-chain';

export interface RecordingProxy {
  url: string;
  carried: Array<{ hostname: string; port: number }>;
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /** Connect to targets from this local address (e.g. 127.0.0.2): a distinct "exit IP" the fixture site can see. */
  localAddress?: string;
  /** Require these proxy credentials (407 otherwise); the returned `url` carries them. */
  credentials?: { username: string; password: string };
}

export async function startRecordingProxy(options: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  const carried: RecordingProxy['carried'] = [];
  const { credentials } = options;
  const server = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ hostname, port, username, password }: PrepareRequestFunctionOpts) => {
      if (credentials && (username !== credentials.username || password !== credentials.password)) return { requestAuthentication: true };
      carried.push({ hostname, port });
      return options.localAddress ? { localAddress: options.localAddress } : {};
    },
  });
  await server.listen();
  const auth = credentials ? `${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@` : '';
  return { url: `http://${auth}127.0.0.1:${server.port}`, carried, close: () => server.close(true) };
}
