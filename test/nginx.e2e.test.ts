import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NGINX_EXAMPLE, NGINX_MISSING, type Nginx, nginxInstalled, startNginx } from "./support/nginx.js";
import { type ServerProcess, startServer } from "./support/server-process.js";
import { until } from "./support/until.js";

/**
 * Debian's nginx, configured by docs/examples/nginx.conf exactly as the docs show it, in front of two
 * instances of the built server on one database, each trusting one proxy hop. Clients connect from
 * their own loopback addresses (127.0.0.2, 127.0.0.3: Linux routes all of 127/8 locally), so nginx sees
 * two real clients, as it would on a network.
 */
if (!nginxInstalled()) console.warn(NGINX_MISSING);

const cwd = mkdtempSync(join(tmpdir(), "authsvc-nginx-e2e-"));
const run = Date.now();
let ns: FreshNamespace;
let proxy: Nginx;
let servers: ServerProcess[] = [];
let serviceKey: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request to nginx from the loopback address `from`. */
function call(
  from: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: proxy.port,
        localAddress: from,
        method,
        path,
        agent: false,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The instance (0 or 1) that logged the request of `answer` (its line may follow the answer). */
async function answeredBy(answer: Answer): Promise<number> {
  const id = answer.headers["x-request-id"];
  const logged = () => servers.findIndex((s) => s.lines().some((line) => line.request_id === id));
  return (await until(() => logged() + 1)) - 1;
}

describe.skipIf(!nginxInstalled())("two instances behind nginx (docs/examples/nginx.conf)", () => {
  beforeAll(async () => {
    [ns, serviceKey] = await Promise.all([migratedNamespace(), roleKey("service_role")]);
    const env = productionServerEnv(ns, {
      AUTHSVC_API_TRUSTED_PROXY_HOPS: "1",
      AUTHSVC_RATE_LIMIT_HEADER: "X-Forwarded-For",
      // 30 /verify per 5 minutes per client, all 30 at once.
      AUTHSVC_RATE_LIMIT_VERIFY: "30",
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      // Long enough for a sign-up's password hash on a busy machine; the slow test holds one longer.
      AUTHSVC_API_MAX_REQUEST_DURATION: "4s",
      // Few connections: the test database is shared with every other test file of the run.
      AUTHSVC_DB_MAX_POOL_SIZE: "4",
    });
    servers = await Promise.all([0, 1].map(() => startServer(env, { cwd })));
    const [a, b] = servers.map((s) => new URL(s.url).host) as [string, string];
    proxy = await startNginx([a, b]);
  }, 60_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await ns?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it("runs the example as the docs show it, and its requests reach both instances", async () => {
    expect(proxy.site).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
    expect(proxy.site).toContain("large_client_header_buffers");
    // The excerpt docs/operations.md shows is the file's own text.
    const ops = readFileSync(new URL("../docs/operations.md", import.meta.url), "utf8");
    const excerpt = /## Behind nginx[\s\S]*?```nginx\n([\s\S]*?)```/.exec(ops)?.[1] ?? "";
    const example = readFileSync(NGINX_EXAMPLE, "utf8");
    const shown = excerpt.split("\n").filter((line) => line.trim() && !line.startsWith("#"));
    expect(shown.length).toBeGreaterThan(3);
    for (const line of shown) expect(example).toContain(line);
    expect(ops).toContain("(examples/nginx.conf)");
    const reached = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const answer = await call("127.0.0.2", "GET", "/settings");
      expect(answer.status).toBe(200);
      reached.add(await answeredBy(answer));
    }
    expect([...reached].sort()).toEqual([0, 1]);
  });

  it("the audit log records the real client's address, not one the client wrote", async () => {
    const email = `behind-nginx-${run}@example.com`;
    const signup = await call("127.0.0.3", "POST", "/signup", {
      headers: { "x-forwarded-for": "203.0.113.7" },
      body: { email, password: "secret-pw-1" },
    });
    expect(signup.status).toBe(200);
    const audit = await call(
      "127.0.0.2",
      "GET",
      `/admin/audit?query=${encodeURIComponent(`author:${email}`)}`,
      {
        headers: { authorization: `Bearer ${serviceKey}` },
      },
    );
    expect(audit.status).toBe(200);
    const entries = JSON.parse(audit.text) as { ip_address: string }[];
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.ip_address).toBe("127.0.0.3");
  });

  it("per-IP limits count each real client: a spoofed X-Forwarded-For does not escape, another client is not limited", async () => {
    const verify = (from: string, spoof?: string) =>
      call(from, "POST", "/verify", {
        headers: spoof ? { "x-forwarded-for": spoof } : {},
        body: { type: "signup", token_hash: "nope" },
      });
    // Client 127.0.0.4 writes a new address in X-Forwarded-For each time: its limit (30) still applies,
    // across both instances (nginx spreads the requests between them).
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await verify("127.0.0.4", `198.51.100.${i + 1}`)).status);
    expect(statuses.slice(0, 30)).not.toContain(429);
    expect(statuses.slice(30)).toEqual([429, 429]);
    // Another client is counted on its own.
    const other = await verify("127.0.0.5");
    expect(other.status).not.toBe(429);
    expect(other.status).toBeGreaterThanOrEqual(400);
  });

  it("a 12 KB header passes to authsvc; one past nginx's buffers gets nginx's clean 400", async () => {
    const cookie = `sb-session=${"x".repeat(12 * 1024)}`;
    const big = await call("127.0.0.2", "GET", "/settings", { headers: { cookie } });
    expect(big.status).toBe(200);
    expect(JSON.parse(big.text)).toHaveProperty("external");
    const huge = await call("127.0.0.2", "GET", "/settings", {
      headers: { cookie: `sb-session=${"x".repeat(40 * 1024)}` },
    });
    expect(huge.status).toBe(400);
    expect(huge.text).toContain("Request Header Or Cookie Too Large");
  });

  it("a request held past authsvc's time limit is answered its JSON 504 through nginx, once", async () => {
    const email = `slow-behind-nginx-${run}@example.com`;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another session holds a lock that makes the sign-up's insert wait past the 4 s limit.
    const holder = ns.sql.begin(async (tx) => {
      await tx`lock table ${tx(ns.namespace)}.users in share row exclusive mode`;
      locked();
      await released;
    });
    await isLocked;
    const signupsBefore = servers.flatMap((s) => s.lines()).filter((l) => l.path === "/signup").length;
    const began = performance.now();
    const answer = await call("127.0.0.2", "POST", "/signup", {
      body: { email, password: "secret-pw-1" },
    });
    const ms = performance.now() - began;
    release();
    await holder;
    expect(answer.status).toBe(504);
    expect(answer.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(answer.text)).toMatchObject({ error_code: "request_timeout" });
    // authsvc's limit (4 s) answered, long before nginx's proxy_read_timeout (30 s).
    expect(ms).toBeGreaterThan(3_900);
    expect(ms).toBeLessThan(15_000);
    // nginx did not resend the POST to the other instance: one sign-up was seen in all.
    await answeredBy(answer);
    const signups = () => servers.flatMap((s) => s.lines()).filter((l) => l.path === "/signup").length;
    expect(signups() - signupsBefore).toBe(1);
  }, 20_000);

  it("with one instance stopped, every request is answered by the other", async () => {
    const stopped = await servers[1]?.stop();
    expect(stopped?.code).toBe(0);
    for (let i = 0; i < 6; i++) {
      const read = await call("127.0.0.2", "GET", "/settings");
      expect(read.status).toBe(200);
      expect(await answeredBy(read)).toBe(0);
    }
    // A POST refused a connection by the stopped instance never reached it: nginx passes it on too.
    for (let i = 0; i < 2; i++) {
      const signup = await call("127.0.0.3", "POST", "/signup", {
        body: { email: `failover-${i}-${run}@example.com`, password: "secret-pw-1" },
      });
      expect(signup.status).toBe(200);
    }
  });
});
