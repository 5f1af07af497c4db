/** A real forward proxy on loopback (proxy-chain) that records the requests it carries. */
import { Server as ProxyServer, type PrepareRequestFunctionOpts } from 'proxy-chain';

export interface RecordingProxy {
  url: string;
  carried: Array<{ hostname: string; port: number }>;
  close(): Promise<void>;
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const carried: RecordingProxy['carried'] = [];
  const server = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ hostname, port }: PrepareRequestFunctionOpts) => {
      carried.push({ hostname, port });
      return {};
    },
  });
  await server.listen();
  return { url: `http://127.0.0.1:${server.port}`, carried, close: () => server.close(true) };
}
