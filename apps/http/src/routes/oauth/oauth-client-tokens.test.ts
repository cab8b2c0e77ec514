import { createHash } from "node:crypto";
import { secretTokens } from "@authsvc/adapters";
import { describe, expect, it } from "vitest";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const VERIFIER = "v".repeat(64);
const REDIRECT = "https://app.example/cb";

/** An app with the OAuth server on (fakes, but a real SHA-256 for S256), a signed-in user and a public client. */
async function withClient() {
  const base = testApp().auth.settings;
  const t = testApp({}, { signup: { ...base.signup, mailerAutoconfirm: true } });
  Object.assign(t.auth, { tokens: secretTokens("test-key") });
  const signup = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { access_token: token } = (await signup.json()) as { access_token: string };
  const registered = await send(t.app, "POST", "/oauth/clients/register", {
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    client_name: "App",
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const user = { authorization: `Bearer ${token}` };
  const challenge = createHash("sha256").update(VERIFIER).digest("base64url");
  /** Starts a request for `scope` and opens it as the user: the consent page's details, or the redirect. */
  const open = async (scope: string) => {
    const started = await t.app.request(
      `/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${encodeURIComponent(scope)}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    const id = new URL(started.headers.get("location") as string).searchParams.get("authorization_id");
    const details = await t.app.request(`/oauth/authorizations/${id}`, { headers: user });
    return { id, body: (await details.json()) as { redirect_url?: string; scope?: string } };
  };
  /** A code approved by the user for `scope`. */
  const approvedCode = async (scope: string) => {
    const { id } = await open(scope);
    const approved = await send(
      t.app,
      "POST",
      `/oauth/authorizations/${id}/consent`,
      { action: "approve" },
      user,
    );
    const { redirect_url: landing } = (await approved.json()) as { redirect_url: string };
    return new URL(landing).searchParams.get("code") as string;
  };
  return { ...t, user, clientId, open, approvedCode };
}

describe("the OAuth server's codes and consents", () => {
  it("ends the tokens of a code's first exchange when the code is replayed", async () => {
    const { app, clientId, approvedCode } = await withClient();
    const body = {
      grant_type: "authorization_code",
      code: await approvedCode("email"),
      code_verifier: VERIFIER,
      client_id: clientId,
    };
    const first = await send(app, "POST", "/oauth/token", body);
    expect(first.status).toBe(200);
    const { access_token: token, refresh_token: refreshToken } = (await first.json()) as {
      access_token: string;
      refresh_token: string;
    };
    const asClient = { authorization: `Bearer ${token}` };
    expect((await app.request("/oauth/userinfo", { headers: asClient })).status).toBe(200);
    const replay = await send(app, "POST", "/oauth/token", body);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    const userinfo = await app.request("/oauth/userinfo", { headers: asClient });
    expect(userinfo.status).toBe(403);
    const refresh = await send(app, "POST", "/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: clientId,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("keeps every scope the user granted when a narrower request is approved on its own", async () => {
    const { open, approvedCode } = await withClient();
    await approvedCode("email profile");
    // Covered by the consent: approved at once, without asking.
    expect((await open("email")).body.redirect_url).toMatch(/^https:\/\/app\.example\/cb\?code=/);
    // The consent still covers the wider request: not asked again.
    expect((await open("email profile")).body.redirect_url).toMatch(/^https:\/\/app\.example\/cb\?code=/);
    // A scope never granted is asked for.
    expect((await open("email phone")).body).toMatchObject({ scope: "email phone" });
  });
});
