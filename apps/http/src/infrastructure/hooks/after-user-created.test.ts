import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type FakeProvider,
  type FreshNamespace,
  freshNamespace,
  json,
  keycloakCase,
  startFakeProvider,
} from "@authsvc/adapters/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Composition } from "../../composition/compose.js";
import { COMPOSED_BASE as BASE, composedApp } from "../../testing/composed-app.js";
import { roleKey } from "../../testing/server-env.js";

/**
 * The after-user-created hook through the composed app (real Postgres), with a loopback HTTP hook
 * that records what it is sent and answers as the test says.
 */
const SECRET = `v1,whsec_${Buffer.from("after-user-created-secret-32-bytes").toString("base64")}`;
const WELCOME = "http://localhost:3000/welcome";
let ns: FreshNamespace;
let composition: Composition;
let hookServer: Server;
let keycloak: FakeProvider;
let serviceKey: string;
/** What the hook received. */
let received: { metadata: { name: string }; user: Record<string, unknown> }[] = [];
/** The status the hook answers with. */
let hookStatus = 200;

beforeAll(async () => {
  ns = await freshNamespace();
  serviceKey = await roleKey("service_role");
  hookServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString()));
      res.writeHead(hookStatus, { "content-type": "application/json" });
      res.end(hookStatus === 200 ? "{}" : JSON.stringify({ error: { http_code: 500, message: "down" } }));
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, "127.0.0.1", resolve));
  keycloak = await startFakeProvider({
    ...keycloakCase.behaviour,
    resources: {
      "GET /realms/main/protocol/openid-connect/userinfo": () =>
        json(200, { sub: "kc-ann", email: "kc-ann@example.com", email_verified: true, name: "Ann" }),
    },
  });
  composition = await composedApp(ns, {
    AUTHSVC_HOOK_AFTER_USER_CREATED_ENABLED: "true",
    AUTHSVC_HOOK_AFTER_USER_CREATED_URI: `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/created`,
    AUTHSVC_HOOK_AFTER_USER_CREATED_SECRETS: SECRET,
    AUTHSVC_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
    AUTHSVC_URI_ALLOW_LIST: WELCOME,
    AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
    AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: keycloak.clientId,
    AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: keycloak.secret,
    AUTHSVC_EXTERNAL_KEYCLOAK_URL: keycloak.url,
  });
});

afterAll(async () => {
  await composition?.close();
  await ns?.drop();
  await keycloak?.close();
  await new Promise((resolve) => hookServer?.close(resolve));
});

beforeEach(() => {
  received = [];
  hookStatus = 200;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  composition.app.fetch(
    new Request(`${BASE}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );
const asAdmin = () => ({ authorization: `Bearer ${serviceKey}`, apikey: serviceKey });

/** The users the hook heard of, by id. */
const announcedIds = () => received.map((payload) => payload.user.id);

describe("the after-user-created hook", () => {
  it("hears of a sign-up once it is committed, with the user and its identities", async () => {
    const res = await post("/signup", { email: "ann@example.com", password: "a-long-password-1" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { id: string } };
    expect(received).toHaveLength(1);
    const [payload] = received;
    expect(payload?.metadata.name).toBe("after-user-created");
    expect(payload?.user).toMatchObject({ id: body.user.id, email: "ann@example.com" });
    expect(payload?.user.identities).toMatchObject([{ provider: "email", user_id: body.user.id }]);
  });

  it("hears of a user the admin creates and of an anonymous one, not of a refused duplicate", async () => {
    const created = await post("/admin/users", { email: "bea@example.com" }, asAdmin());
    expect(created.status).toBe(200);
    const bea = ((await created.json()) as { id: string }).id;
    const anonymous = await post("/signup", {});
    expect(anonymous.status).toBe(200);
    const anon = ((await anonymous.json()) as { user: { id: string } }).user.id;
    const duplicate = await post("/admin/users", { email: "bea@example.com" }, asAdmin());
    expect(duplicate.status).toBe(422);
    expect(announcedIds()).toEqual([bea, anon]);
    expect(received[1]?.user.is_anonymous).toBe(true);
  });

  it("hears of a user an external sign-in creates, and not again when it signs in later", async () => {
    const signIn = async () => {
      const start = await composition.app.fetch(
        new Request(`${BASE}/authorize?provider=keycloak&redirect_to=${encodeURIComponent(WELCOME)}`),
      );
      const atProvider = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
      const back = new URL(atProvider.headers.get("location") ?? "");
      const cookie = start.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const res = await composition.app.fetch(
        new Request(`${BASE}/callback${back.search}`, { headers: { cookie } }),
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toContain("access_token=");
    };
    await signIn();
    expect(received).toHaveLength(1);
    expect(received[0]?.user).toMatchObject({ email: "kc-ann@example.com" });
    expect(received[0]?.user.identities).toMatchObject([{ provider: "keycloak", id: "kc-ann" }]);
    await signIn();
    expect(received).toHaveLength(1);
  });

  it("failing, neither fails the request nor undoes the user", async () => {
    hookStatus = 500;
    const res = await post("/signup", { email: "cat@example.com", password: "a-long-password-1" });
    expect(res.status).toBe(200);
    const cat = ((await res.json()) as { user: { id: string } }).user.id;
    expect(announcedIds()).toEqual([cat]);
    const found = await composition.app.fetch(
      new Request(`${BASE}/admin/users/${cat}`, { headers: asAdmin() }),
    );
    expect(found.status).toBe(200);
    // The account works: its password signs in.
    const signIn = await post("/token?grant_type=password", {
      email: "cat@example.com",
      password: "a-long-password-1",
    });
    expect(signIn.status).toBe(200);
  });
});
