import type { fakeTotp } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app and a user signed up (autoconfirmed) through the API, aal1. */
async function signedIn(overrides: Parameters<typeof testApp>[0] = {}) {
  const t = testApp(overrides, { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } });
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  const totp = t.auth.totp as ReturnType<typeof fakeTotp>;
  return { ...t, totp, userId: body.user.id, headers: { authorization: `Bearer ${body.access_token}` } };
}

type Json = Record<string, unknown>;

describe("/factors", () => {
  it("enrolls, challenges and verifies a TOTP factor: the answer is an aal2 token response", async () => {
    const { app, auth, totp, headers } = await signedIn();
    const enrolled = await send(
      app,
      "POST",
      "/factors",
      { factor_type: "totp", friendly_name: "app" },
      headers,
    );
    expect(enrolled.status).toBe(200);
    const factor = (await enrolled.json()) as Json & { id: string; totp: { secret: string } };
    expect(factor).toMatchObject({
      type: "totp",
      friendly_name: "app",
      totp: { qr_code: expect.stringContaining("<svg"), uri: expect.stringMatching(/^otpauth:/) },
    });
    const challenged = await send(app, "POST", `/factors/${factor.id}/challenge`, {}, headers);
    expect(challenged.status).toBe(200);
    const challenge = (await challenged.json()) as { id: string; type: string; expires_at: number };
    expect(challenge).toMatchObject({ type: "totp", expires_at: expect.any(Number) });
    const code = totp.codeAt(factor.totp.secret, auth.clock.now());
    const verified = await send(
      app,
      "POST",
      `/factors/${factor.id}/verify`,
      { challenge_id: challenge.id, code },
      headers,
    );
    expect(verified.status).toBe(200);
    const tokens = (await verified.json()) as Json & { access_token: string; user: { factors: Json[] } };
    expect(tokens).toMatchObject({ token_type: "bearer", refresh_token: expect.any(String) });
    expect(await auth.signer.verify(tokens.access_token)).toMatchObject({ aal: "aal2" });
    expect(tokens.user.factors).toEqual([
      expect.objectContaining({
        id: factor.id,
        status: "verified",
        factor_type: "totp",
        friendly_name: "app",
        phone: "",
      }),
    ]);
    const user = await send(app, "GET", "/user", undefined, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(((await user.json()) as { factors: Json[] }).factors).toHaveLength(1);
    const removed = await send(app, "DELETE", `/factors/${factor.id}`, undefined, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(await removed.json()).toEqual({ id: factor.id });
  });

  it("binds a challenge to the client address, not to an X-Forwarded-For entry the client chose", async () => {
    const { app, auth, totp, headers } = await signedIn({ trustedProxyHops: 1 });
    const enrolled = await send(app, "POST", "/factors", { factor_type: "totp" }, headers);
    const factor = (await enrolled.json()) as { id: string; totp: { secret: string } };
    const via = (chain: string) => ({ ...headers, "x-forwarded-for": chain });
    const challenged = await send(
      app,
      "POST",
      `/factors/${factor.id}/challenge`,
      {},
      via("192.0.2.1, 198.51.100.7"),
    );
    const { id } = (await challenged.json()) as { id: string };
    const code = totp.codeAt(factor.totp.secret, auth.clock.now());
    const verify = (chain: string) =>
      send(app, "POST", `/factors/${factor.id}/verify`, { challenge_id: id, code }, via(chain));
    // Another client that writes the same first entry is another client.
    const other = await verify("192.0.2.1, 203.0.113.9");
    expect(other.status).toBe(422);
    expect(other.headers.get("x-sb-error-code")).toBe("mfa_ip_address_mismatch");
    // The same client, whatever it writes in front.
    expect((await verify("192.0.2.99, 198.51.100.7")).status).toBe(200);
  });

  it("answers the reference's statuses for bad input, in both error shapes", async () => {
    const { app, headers } = await signedIn();
    const unknownType = await send(app, "POST", "/factors", { factor_type: "sms" }, headers);
    expect(unknownType.status).toBe(400);
    const badId = await send(app, "POST", "/factors/not-a-uuid/challenge", {}, { ...headers, ...NEW_API });
    expect(badId.status).toBe(404);
    expect(await badId.json()).toMatchObject({
      code: "validation_failed",
      message: "factor_id must be an UUID",
    });
    const missing = await send(
      app,
      "DELETE",
      "/factors/11111111-1111-4111-8111-111111111111",
      undefined,
      headers,
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 404,
      error_code: "mfa_factor_not_found",
      msg: "Factor not found",
    });
    const enrolled = (await (
      await send(app, "POST", "/factors", { factor_type: "totp" }, headers)
    ).json()) as Json;
    const noChallenge = await send(
      app,
      "POST",
      `/factors/${enrolled.id}/verify`,
      { challenge_id: "x", code: "1" },
      headers,
    );
    expect(noChallenge.status).toBe(400);
    const unknownChallenge = await send(
      app,
      "POST",
      `/factors/${enrolled.id}/verify`,
      { challenge_id: "22222222-2222-4222-8222-222222222222", code: "123456" },
      headers,
    );
    expect(unknownChallenge.status).toBe(422);
    expect(await unknownChallenge.json()).toMatchObject({ error_code: "mfa_factor_not_found" });
    const noToken = await send(app, "POST", "/factors", { factor_type: "totp" });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ msg: expect.stringContaining("Bearer token") });
    const badJson = await send(app, "POST", "/factors", { factor_type: 5 }, headers);
    expect(badJson.status).toBe(400);
  });
});
