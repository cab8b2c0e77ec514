import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy in front of a database that the test can make go silent: in `silent` mode it drops
 * every open connection and accepts new ones without ever forwarding a byte — what a client sees of
 * a network partition or a frozen host, where nothing refuses and nothing answers.
 */
export interface SilenceableProxy {
  /** The target URL with host and port replaced by the proxy's. */
  url: string;
  silence(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function silenceableProxy(targetUrl: string): Promise<SilenceableProxy> {
  const target = new URL(targetUrl);
  const open = new Set<Socket>();
  let silent = false;
  const server: Server = createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    if (silent) return; // held open, never answered
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    open.add(upstream);
    upstream.on("close", () => {
      open.delete(upstream);
      client.destroy();
    });
    upstream.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(address.port);
  return {
    url: url.toString(),
    silence() {
      silent = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      silent = false;
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
