import { describe, expect, it } from "vitest";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const form = (app: ReturnType<typeof testApp>["app"], path: string, fields: Record<string, string>) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const PUSHED = {
  redirect_uri: "https://app.example/cb",
  response_type: "code",
  state: "st",
  code_challenge: "c".repeat(43),
  code_challenge_method: "S256",
};

describe("POST /oauth/par and require PAR", () => {
  it("pushes a public client's request (201, no-store) that /oauth/authorize takes once", async () => {
    const { app } = testApp();
    const registered = await send(app, "POST", "/oauth/clients/register", {
      redirect_uris: ["https://app.example/cb"],
      token_endpoint_auth_method: "none",
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const pushed = await form(app, "/oauth/par", { ...PUSHED, client_id: clientId });
    expect(pushed.status).toBe(201);
    expect(pushed.headers.get("cache-control")).toBe("no-store");
    const body = (await pushed.json()) as { request_uri: string; expires_in: number };
    expect(body).toMatchObject({ expires_in: 60 });
    const query = new URLSearchParams({ client_id: clientId, request_uri: body.request_uri });
    expect((await app.request(`/oauth/authorize?${query}`)).status).toBe(302);
    const again = await app.request(`/oauth/authorize?${query}`);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_request" });
    const unauthenticated = await form(app, "/oauth/par", PUSHED);
    expect(unauthenticated.status).toBe(400);
  });

  it("advertises the endpoint, and require PAR when it is on for every client", async () => {
    const base = testApp().auth.settings;
    const on = testApp(
      {},
      { oauthServer: { ...base.oauthServer, requirePushedAuthorizationRequests: true } },
    );
    const metadata = (await (
      await on.app.request("/.well-known/oauth-authorization-server")
    ).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      pushed_authorization_request_endpoint: "http://localhost:9999/oauth/par",
      require_pushed_authorization_requests: true,
    });
    const registered = await send(on.app, "POST", "/oauth/clients/register", {
      redirect_uris: ["https://app.example/cb"],
      token_endpoint_auth_method: "none",
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const plain = new URLSearchParams({ ...PUSHED, client_id: clientId });
    const refused = await on.app.request(`/oauth/authorize?${plain}`);
    // A dynamically registered client: answered here, never redirected.
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringMatching(/pushed/),
    });
  });
});
