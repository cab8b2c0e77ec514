import { describe, expect, it } from "vitest";
import { bearer, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const registration = { redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" };

describe("client registration and the admin's list of clients", () => {
  it("limits dynamic registration per client address without RATE_LIMIT_HEADER", async () => {
    // One proxy in front: the client is the last X-Forwarded-For entry (in-process requests have no peer).
    const { app } = testApp({ trustedProxyHops: 1 });
    const register = (ip: string) =>
      send(app, "POST", "/oauth/clients/register", registration, { "x-forwarded-for": ip });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await register("192.0.2.1")).status);
    expect(statuses).toEqual(Array(30).fill(201));
    const refused = await register("192.0.2.1");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error_code: "over_request_rate_limit" });
    // Another client address has its own count.
    expect((await register("192.0.2.2")).status).toBe(201);
  });

  it("refuses metadata over the reference's bounds", async () => {
    const { app } = testApp();
    const long = (n: number) => `https://app.example/${"a".repeat(n - 20)}`;
    for (const [fields, message] of [
      [
        { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) },
        "redirect_uris must not hold more than 10 URIs",
      ],
      [{ redirect_uris: [long(2049)] }, "redirect URI is too long"],
      [{ client_name: "n".repeat(1025) }, "client_name must be at most 1024 characters"],
      [{ client_uri: long(2049) }, "client_uri must be at most 2048 characters"],
      [{ logo_uri: long(2049) }, "logo_uri must be at most 2048 characters"],
    ] as const) {
      const answer = await send(app, "POST", "/oauth/clients/register", { ...registration, ...fields });
      expect(answer.status, message).toBe(400);
      expect(await answer.json()).toMatchObject({ error_code: "validation_failed", msg: message });
    }
  });

  it("lets the admin alone give token exchange, and answers what it allows", async () => {
    const { app, auth } = testApp();
    const headers = await bearer(auth, { role: "service_role" });
    const exchange = "urn:ietf:params:oauth:grant-type:token-exchange";
    const agent = { redirect_uris: ["https://agent.example/cb"], grant_types: [exchange] };
    const dynamic = await send(app, "POST", "/oauth/clients/register", agent);
    expect(dynamic.status).toBe(400);
    expect(await dynamic.json()).toMatchObject({ error_code: "validation_failed" });
    const selfAllowed = await send(app, "POST", "/oauth/clients/register", {
      ...registration,
      token_exchange_audiences: ["https://api.example"],
    });
    expect(selfAllowed.status).toBe(400);
    const created = await send(
      app,
      "POST",
      "/admin/oauth/clients",
      { ...agent, token_exchange_audiences: ["https://api.example"] },
      headers,
    );
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      grant_types: [exchange],
      token_exchange_audiences: ["https://api.example"],
      token_exchange_impersonation: false,
    });
    const path = `/admin/oauth/clients/${body.client_id}`;
    const updated = await send(app, "PUT", path, { token_exchange_impersonation: true }, headers);
    expect(await updated.json()).toMatchObject({ token_exchange_impersonation: true });
    for (const bad of [{ token_exchange_impersonation: "yes" }, { token_exchange_audiences: "https://x" }]) {
      expect((await send(app, "PUT", path, bad, headers)).status).toBe(400);
    }
    // A client without the grant and with nothing allowed answers no such fields.
    const plain = await send(app, "POST", "/admin/oauth/clients", registration, headers);
    expect(await plain.json()).not.toHaveProperty("token_exchange_audiences");
  });

  it("pages the admin's list of clients as the admin's list of users", async () => {
    const { app, auth } = testApp();
    const headers = await bearer(auth, { role: "service_role" });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      auth.clock.advance(1000);
      const created = await send(app, "POST", "/admin/oauth/clients", registration, headers);
      ids.unshift(((await created.json()) as { client_id: string }).client_id);
    }
    const first = await send(app, "GET", "/admin/oauth/clients?page=1&per_page=2", undefined, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-total-count")).toBe("3");
    expect(first.headers.get("link")).toBe(
      '</admin/oauth/clients?page=2&per_page=2>; rel="next", </admin/oauth/clients?page=2&per_page=2>; rel="last"',
    );
    const page1 = (await first.json()) as { clients: { client_id: string }[] };
    expect(page1.clients.map((c) => c.client_id)).toEqual(ids.slice(0, 2));
    const second = await send(app, "GET", "/admin/oauth/clients?page=2&per_page=2", undefined, headers);
    const page2 = (await second.json()) as { clients: { client_id: string }[] };
    expect(page2.clients.map((c) => c.client_id)).toEqual(ids.slice(2));
    // As auth-js sends them when the caller gives none: the first page of 50.
    const all = await send(app, "GET", "/admin/oauth/clients?page=&per_page=", undefined, headers);
    expect(((await all.json()) as { clients: unknown[] }).clients).toHaveLength(3);
    expect(all.headers.get("link")).toBe('</admin/oauth/clients?page=1&per_page=50>; rel="last"');
    const bad = await send(app, "GET", "/admin/oauth/clients?per_page=x", undefined, headers);
    expect(bad.status).toBe(400);
  });
});
