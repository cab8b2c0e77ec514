import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** What a path answers: a status and body, a redirect to another path, or nothing at all (hangs). */
export type TemplateRoute =
  | { readonly status: number; readonly body: string }
  | { readonly redirect: string }
  | { readonly hang: true };

/** A loopback HTTP server for `MAILER_TEMPLATES_*` URLs that counts the requests each path receives. */
export async function startTemplateServer(routes: Readonly<Record<string, TemplateRoute>>): Promise<{
  /** `http://127.0.0.1:<port>` + path. */
  url(path: string): string;
  /** Requests received per path (query string excluded). */
  hits(path: string): number;
  close(): Promise<void>;
}> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path] ?? { status: 404, body: "not found" };
    if ("hang" in route) return;
    if ("redirect" in route) {
      res.writeHead(302, { location: route.redirect }).end();
      return;
    }
    res.writeHead(route.status, { "content-type": "text/html; charset=utf-8" }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        // Hanging requests would keep close() waiting forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
