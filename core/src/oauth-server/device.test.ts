import { describe, expect, it } from "vitest";
import { aUser, fakeDeps } from "../testing/index.js";
import { registerClient } from "./clients.js";
import { authorizationDetails, decideConsent } from "./consent.js";
import { enterUserCode, normalizeUserCode, startDeviceAuthorization } from "./device.js";
import { pollDeviceCode } from "./device-grant.js";
import { refreshForClient } from "./token-grants.js";

const DEVICE = "urn:ietf:params:oauth:grant-type:device_code";

async function setup(grantTypes: string[] = [DEVICE, "refresh_token"]) {
  const deps = fakeDeps();
  const user = aUser({ emailConfirmedAt: deps.clock.now(), lastSignInAt: deps.clock.now() });
  deps.store.tables.users.set(user.id, user);
  const register = async () => {
    const registered = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: ["https://app.example/cb"],
      authMethod: "none",
      name: "TV",
      grantTypes,
    });
    if (!registered.ok) throw registered.error;
    return registered.value.client;
  };
  const client = await register();
  return { deps, user, client, other: await register() };
}

async function started(scope = "openid email") {
  const s = await setup();
  const result = await startDeviceAuthorization(s.deps, { client: s.client, scope });
  if (!result.ok) throw result.error;
  return { ...s, device: result.value };
}

/** The user typed the code and opened the consent page; the request's public id. */
async function entered(s: Awaited<ReturnType<typeof started>>, typed = s.device.userCode) {
  const result = await enterUserCode(s.deps, { userCode: typed });
  if (!result.ok) throw result.error;
  const authorizationId = new URL(result.value.location).searchParams.get("authorization_id") as string;
  expect(await authorizationDetails(s.deps, { authorizationId, userId: s.user.id })).toMatchObject({
    ok: true,
    value: { kind: "details" },
  });
  return authorizationId;
}

const poll = (
  s: Awaited<ReturnType<typeof started>>,
  client = s.client,
  dpop: { readonly jkt: string } | null = null,
) => pollDeviceCode(s.deps, { client, deviceCode: s.device.deviceCode, dpop });

describe("startDeviceAuthorization", () => {
  it("answers a device code, a user code of 8 consonants, the verification page, expiry and interval", async () => {
    const { device } = await started();
    expect(device.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(device.verificationUri).toBe("http://localhost:9999/oauth/device");
    expect(new URL(device.verificationUriComplete).searchParams.get("user_code")).toBe(device.userCode);
    expect(device).toMatchObject({ expiresIn: 600, interval: 5 });
    expect(device.deviceCode.length).toBeGreaterThan(0);
  });

  it("refuses a client without the grant type, and scopes and resources /oauth/authorize refuses", async () => {
    const { deps, client } = await setup(["authorization_code"]);
    expect(await startDeviceAuthorization(deps, { client })).toMatchObject({
      ok: false,
      error: { code: "unauthorized_client" },
    });
    const s = await setup();
    const bad = [
      { resource: "not a uri" },
      { resource: "https://r.example/?q=1" },
      { scope: "x".repeat(4097) },
    ];
    for (const input of bad)
      expect(await startDeviceAuthorization(s.deps, { client: s.client, ...input })).toMatchObject({
        ok: false,
        error: { code: "invalid_request" },
      });
    expect(await startDeviceAuthorization(s.deps, { client: s.client, scope: "admin" })).toMatchObject({
      ok: false,
      error: { code: "invalid_scope" },
    });
  });
});

describe("enterUserCode", () => {
  it("reads the code whatever its case, dashes and spaces", () => {
    expect(normalizeUserCode(" bcdf-ghjk ")).toBe("BCDFGHJK");
    expect(normalizeUserCode("BCDF GHJK")).toBe("BCDFGHJK");
    expect(normalizeUserCode("BCDFGHJA")).toBeNull();
    expect(normalizeUserCode("BCDFGHJ")).toBeNull();
  });

  it("leads to the consent page of the request; a wrong, expired or decided code is refused alike", async () => {
    const s = await started();
    const typed = s.device.userCode.toLowerCase().replace("-", " ");
    const authorizationId = await entered(s, typed);
    const refused = { ok: false, error: { code: "oauth_authorization_not_found" } };
    expect(await enterUserCode(s.deps, { userCode: "BBBB-BBBB" })).toMatchObject(refused);
    expect(await enterUserCode(s.deps, { userCode: "<script>" })).toMatchObject(refused);
    await decideConsent(s.deps, { authorizationId, userId: s.user.id, action: "deny" });
    expect(await enterUserCode(s.deps, { userCode: s.device.userCode })).toMatchObject(refused);
    const late = await started();
    late.deps.clock.advance(600_000);
    expect(await enterUserCode(late.deps, { userCode: late.device.userCode })).toMatchObject(refused);
  });
});

describe("the device's consent and polling", () => {
  it("pending, then slow_down with a longer interval, kept; approved: tokens once, then invalid_grant", async () => {
    const s = await started();
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "authorization_pending" } });
    s.deps.clock.advance(1_000);
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "slow_down" } });
    // The interval is now 10 s: 6 s later is still too fast.
    s.deps.clock.advance(6_000);
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "slow_down" } });
    s.deps.clock.advance(15_000);
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "authorization_pending" } });
    const authorizationId = await entered(s);
    const decided = await decideConsent(s.deps, { authorizationId, userId: s.user.id, action: "approve" });
    expect(decided).toMatchObject({
      ok: true,
      value: { redirectUrl: "http://localhost:9999/oauth/device?result=approved" },
    });
    s.deps.clock.advance(15_000);
    const tokens = await poll(s);
    expect(tokens).toMatchObject({ ok: true, value: { scope: "openid email" } });
    expect(tokens.ok && tokens.value.idToken).toBeTruthy();
    const [session] = [...s.deps.store.tables.sessions.values()];
    expect(session).toMatchObject({ userId: s.user.id, oauthClientId: s.client.id, scopes: "openid email" });
    s.deps.clock.advance(15_000);
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "invalid_grant" } });
  });

  it("binds the session and its access tokens to the key of a poll with a DPoP proof (RFC 9449 §5)", async () => {
    const key = { jkt: "thumbprint-of-the-device-key" };
    const s = await started();
    const authorizationId = await entered(s);
    await decideConsent(s.deps, { authorizationId, userId: s.user.id, action: "approve" });
    s.deps.clock.advance(15_000);
    const tokens = await poll(s, s.client, key);
    if (!tokens.ok) throw tokens.error;
    expect(tokens.value.boundTo).toBe(key.jkt);
    expect(await s.deps.signer.verify(tokens.value.accessToken)).toMatchObject({ cnf: key });
    expect([...s.deps.store.tables.sessions.values()][0]?.dpopJkt).toBe(key.jkt);
    const { refreshToken } = tokens.value;
    const unproved = await refreshForClient(s.deps, { dpop: null, client: s.client, refreshToken });
    expect(unproved).toMatchObject({ ok: false, error: { code: "invalid_grant" } });
    const refreshed = await refreshForClient(s.deps, { dpop: key, client: s.client, refreshToken });
    if (!refreshed.ok) throw refreshed.error;
    expect(await s.deps.signer.verify(refreshed.value.accessToken)).toMatchObject({ cnf: key });
  });

  it("issues unbound tokens to a poll without a DPoP proof", async () => {
    const s = await started();
    const authorizationId = await entered(s);
    await decideConsent(s.deps, { authorizationId, userId: s.user.id, action: "approve" });
    s.deps.clock.advance(15_000);
    const tokens = await poll(s);
    if (!tokens.ok) throw tokens.error;
    expect(tokens.value.boundTo).toBeUndefined();
    expect(await s.deps.signer.verify(tokens.value.accessToken)).not.toHaveProperty("cnf");
    expect([...s.deps.store.tables.sessions.values()][0]?.dpopJkt).toBeUndefined();
  });

  it("refuses another client's device code without telling or changing anything", async () => {
    const s = await started();
    expect(await poll(s, s.other)).toMatchObject({
      ok: false,
      error: { code: "invalid_grant", message: "Device code was issued to another client" },
    });
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "authorization_pending" } });
    expect(await pollDeviceCode(s.deps, { client: s.client, deviceCode: "nope", dpop: null })).toMatchObject({
      ok: false,
      error: { code: "invalid_grant" },
    });
    expect(await pollDeviceCode(s.deps, { client: s.client, deviceCode: "", dpop: null })).toMatchObject({
      ok: false,
      error: { code: "invalid_request" },
    });
  });

  it("answers access_denied once the user denied, expired_token past the expiry", async () => {
    const s = await started();
    const authorizationId = await entered(s);
    const decided = await decideConsent(s.deps, { authorizationId, userId: s.user.id, action: "deny" });
    expect(decided).toMatchObject({
      ok: true,
      value: { redirectUrl: expect.stringContaining("result=denied") },
    });
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "access_denied" } });
    s.deps.clock.advance(600_000);
    expect(await poll(s)).toMatchObject({ ok: false, error: { code: "expired_token" } });
  });

  it("asks the user even when an earlier consent covers the scopes", async () => {
    const s = await started("email");
    const first = await entered(s);
    await decideConsent(s.deps, { authorizationId: first, userId: s.user.id, action: "approve" });
    const again = await startDeviceAuthorization(s.deps, { client: s.client, scope: "email" });
    if (!again.ok) throw again.error;
    // entered() expects the details, not an automatic redirect.
    await entered({ ...s, device: again.value });
  });
});
