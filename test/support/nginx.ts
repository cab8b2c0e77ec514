import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  accepts,
  fillPlaceholders,
  readIfExists,
  runningAsRoot,
  spawnDaemon,
  waitUntilReady,
} from "./daemon.js";
import { freePort } from "./free-port.js";

/**
 * Debian's nginx (`/usr/sbin/nginx`, or NGINX_BIN) run by the test itself, never the system service:
 * `nginx -p <temp folder> -c <temp folder>/nginx.conf` in the foreground, its pid, logs and temporary
 * files in that folder, on a free loopback port. The site configuration is docs/examples/nginx.conf as
 * the docs show it, with only its `{{…}}` placeholders filled in.
 */
export const NGINX_BIN = process.env.NGINX_BIN ?? "/usr/sbin/nginx";
export const NGINX_EXAMPLE = fileURLToPath(new URL("../../docs/examples/nginx.conf", import.meta.url));

/** Whether the binary is installed: a test through nginx is skipped, with this message, when not. */
export const nginxInstalled = () => existsSync(NGINX_BIN);
export const NGINX_MISSING = `nginx tests NOT RUN: ${NGINX_BIN} is missing (apt-get install nginx)`;

export interface Nginx {
  /** Where it listens, e.g. http://127.0.0.1:40123. */
  url: string;
  port: number;
  /** The site configuration it runs (the example with its placeholders filled in). */
  site: string;
  /** What nginx logged to its error log so far. */
  errors(): string;
  stop(): Promise<void>;
}

/** The example site with `values` in place of its placeholders; throws on one left unfilled. */
export function exampleSite(values: Record<string, string>): string {
  return fillPlaceholders(readFileSync(NGINX_EXAMPLE, "utf8"), values);
}

/** Starts nginx in front of `upstreams` (host:port each), with the example site as the docs show it. */
export async function startNginx(upstreams: [string, string]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-nginx-"));
  const port = await freePort();
  const site = exampleSite({
    LISTEN: `127.0.0.1:${port}`,
    UPSTREAM_1: upstreams[0],
    UPSTREAM_2: upstreams[1],
  });
  writeFileSync(join(dir, "authsvc.conf"), site);
  const errorLog = join(dir, "error.log");
  // What a packaged nginx.conf gives the site (the main context), with every path in the folder.
  writeFileSync(
    join(dir, "nginx.conf"),
    [
      "daemon off;",
      "master_process on;",
      "worker_processes 1;",
      // As root, the workers would run as nobody, who cannot enter the temporary folder.
      ...(runningAsRoot() ? ["user root;"] : []),
      `pid ${join(dir, "nginx.pid")};`,
      `error_log ${errorLog} info;`,
      "events { worker_connections 256; }",
      "http {",
      `  access_log ${join(dir, "access.log")};`,
      `  client_body_temp_path ${join(dir, "client_body")};`,
      `  proxy_temp_path ${join(dir, "proxy")};`,
      `  fastcgi_temp_path ${join(dir, "fastcgi")};`,
      `  uwsgi_temp_path ${join(dir, "uwsgi")};`,
      `  scgi_temp_path ${join(dir, "scgi")};`,
      `  include ${join(dir, "authsvc.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const daemon = spawnDaemon(NGINX_BIN, ["-p", dir, "-c", join(dir, "nginx.conf")]);
  const errors = () => readIfExists(errorLog) + daemon.stderr();
  await waitUntilReady(daemon, () => accepts(port), { what: `nginx on port ${port}`, dir, log: errors });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    site,
    errors,
    async stop() {
      // SIGQUIT: a graceful stop of the master and its workers.
      await daemon.stop("SIGQUIT");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
