import { describe, expect, it } from "vitest";
import { VERIFIER, withPublicClient } from "../../testing/oauth-client.js";
import { send } from "../../testing/requests.js";

/** Ann and a public client; `open(scope)` starts a request and opens it as Ann, `approvedCode` approves it. */
async function withClient() {
  const t = await withPublicClient();
  const open = async (scope: string) => ({ body: await t.open(await t.start(scope)) });
  /** A code approved by the user for `scope`: the request is opened first, as the consent page does. */
  const approvedCode = async (scope: string) => {
    const id = await t.start(scope);
    await t.open(id);
    return new URL(await t.approve(id)).searchParams.get("code") as string;
  };
  return { ...t, open, approvedCode };
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
