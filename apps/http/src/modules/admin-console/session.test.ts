import { createHmac } from "node:crypto";
import type { AuthDeps } from "@authsvc/core";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppEnv } from "../../http/app-env.js";
import { csrfHolds, csrfOf, keepSession, SESSION_COOKIE, sessionIdOf } from "./session.js";

const SESSION = "0b6d2f6e-6a3e-4b8e-9d4c-2f1e7c3a5b90";
const IDLE_MS = 15 * 60_000;
const keyed = (key: string) =>
  ({
    tokens: { flowBinding: (id: string) => createHmac("sha256", key).update(id).digest("base64url") },
  }) as unknown as AuthDeps;
const auth = keyed("the server's key");

/** An app that starts a console session at `/start` and answers the session `/who` sees. */
function app(reader: AuthDeps = auth) {
  const routes = new Hono<AppEnv>();
  routes.get("/admin/console/start", (c) => {
    keepSession(c, auth, SESSION, IDLE_MS);
    return c.text("ok");
  });
  routes.get("/admin/console/who", (c) => c.text(sessionIdOf(c, reader, IDLE_MS) ?? "none"));
  return routes;
}

async function started() {
  const response = await app().request("https://auth.example.com/admin/console/start");
  return response.headers.get("set-cookie") ?? "";
}
const who = async (cookie: string, reader?: AuthDeps) =>
  (await app(reader).request("https://auth.example.com/admin/console/who", { headers: { cookie } })).text();

afterEach(() => {
  vi.useRealTimers();
});

describe("the admin console's session cookie", () => {
  it("is HttpOnly, Secure, SameSite=Strict and scoped to the console's path", async () => {
    const cookie = await started();
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/admin/console");
  });

  it("names its session until it has been idle longer than the timeout", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T10:00:00Z"));
    const cookie = (await started()).split(";")[0] ?? "";
    vi.setSystemTime(new Date("2026-01-01T10:14:59Z"));
    expect(await who(cookie)).toBe(SESSION);
    vi.setSystemTime(new Date("2026-01-01T10:15:01Z"));
    expect(await who(cookie)).toBe("none");
  });

  it("names nothing when the cookie was not made with the server's key, or was altered", async () => {
    const cookie = (await started()).split(";")[0] ?? "";
    expect(await who(cookie, keyed("another key"))).toBe("none");
    const [name, value = ""] = cookie.split("=");
    const [, seen, mac] = value.split(".");
    const other = `${name}=1f6d2f6e-6a3e-4b8e-9d4c-2f1e7c3a5b90.${seen}.${mac}`;
    expect(await who(other)).toBe("none");
    expect(await who(`${name}=${SESSION}.${Number(seen) + 600}.${mac}`)).toBe("none");
  });

  it("binds the forms' CSRF value to the session", () => {
    const csrf = csrfOf(auth, SESSION);
    expect(csrfHolds(auth, SESSION, { csrf })).toBe(true);
    expect(csrfHolds(auth, "1f6d2f6e-6a3e-4b8e-9d4c-2f1e7c3a5b90", { csrf })).toBe(false);
    expect(csrfHolds(auth, SESSION, {})).toBe(false);
  });
});
