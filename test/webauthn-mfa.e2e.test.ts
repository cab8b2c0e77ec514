import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace, SoftwareAuthenticator } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * WebAuthn as a second factor on the built server: enrolment through auth-js, the challenge's options
 * answered by a software authenticator, verification raising the session to aal2.
 */
const ORIGIN = "http://localhost:5173";
let ns: FreshNamespace;
let server: ServerProcess;
let admin: GoTrueAdminApi;
let anonKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-webauthn-mfa-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  anonKey = await roleKey("anon");
  const env = productionServerEnv(ns, {
    AUTHSVC_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
    AUTHSVC_MFA_WEB_AUTHN_VERIFY_ENABLED: "true",
    AUTHSVC_WEBAUTHN_RP_ID: "localhost",
    AUTHSVC_WEBAUTHN_RP_ORIGINS: ORIGIN,
  });
  server = await startServer(env, { cwd });
  admin = new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

let counter = 0;
const PASSWORD = "secret-password-1";

async function signedIn(email = `webauthn-${Date.now()}-${++counter}@example.com`) {
  const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  return { ...(await passwordSession(email)), email };
}

async function passwordSession(email: string) {
  const client = new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
  const { data, error } = await client.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return { client, token: data.session.access_token };
}

interface ChallengeAnswer {
  id: string;
  type: string;
  expires_at: number;
  webauthn: { type: "create" | "request"; credential_options: { publicKey: Record<string, unknown> } };
}

async function call(token: string, path: string, body: unknown) {
  const answer = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: anonKey, authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

async function challenge(token: string, factorId: string) {
  const answer = await call(token, `/factors/${factorId}/challenge`, { webauthn: { rpId: "ignored" } });
  expect(answer.status).toBe(200);
  return answer.body as unknown as ChallengeAnswer;
}

/** Enrols and verifies a WebAuthn factor for a fresh user: their aal2 token and the factor. */
async function enrolled(authenticator = new SoftwareAuthenticator(ORIGIN)) {
  const user = await signedIn();
  const factor = await user.client.mfa.enroll({ factorType: "webauthn", friendlyName: "key" });
  if (factor.error) throw factor.error;
  const created = await challenge(user.token, factor.data.id);
  const verified = await call(user.token, `/factors/${factor.data.id}/verify`, {
    challenge_id: created.id,
    webauthn: {
      type: "create",
      credential_response: authenticator.register(created.webauthn.credential_options.publicKey),
    },
  });
  expect(verified.status).toBe(200);
  return { ...user, factorId: factor.data.id, authenticator, aal2Token: String(verified.body.access_token) };
}

describe("WebAuthn second factors", () => {
  it("enrols, registers with creation options, and verifying raises the session to aal2 (amr mfa/webauthn)", async () => {
    const { client, token } = await signedIn();
    const enrolment = await client.mfa.enroll({ factorType: "webauthn", friendlyName: "security key" });
    expect(enrolment.error).toBeNull();
    expect(enrolment.data).toMatchObject({ type: "webauthn", friendly_name: "security key" });
    const factorId = enrolment.data?.id ?? "";

    const created = await challenge(token, factorId);
    expect(created.type).toBe("webauthn");
    expect(created.webauthn.type).toBe("create");
    const options = created.webauthn.credential_options.publicKey;
    expect(options).toMatchObject({ rp: { id: "localhost" }, challenge: expect.any(String) });
    expect(options).not.toHaveProperty("authenticatorSelection");

    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const verified = await call(token, `/factors/${factorId}/verify`, {
      challenge_id: created.id,
      webauthn: { type: "create", credential_response: authenticator.register(options) },
    });
    expect(verified.status).toBe(200);
    const claims = decodeJwt(String(verified.body.access_token));
    expect(claims.aal).toBe("aal2");
    expect(claims.amr).toEqual(expect.arrayContaining([expect.objectContaining({ method: "mfa/webauthn" })]));
    const factors = (verified.body.user as { factors: { id: string; status: string; factor_type: string }[] })
      .factors;
    expect(factors).toEqual([
      expect.objectContaining({ id: factorId, status: "verified", factor_type: "webauthn" }),
    ]);
  });

  it("a verified factor gets request options allowing its credential, and its assertion raises a new session", async () => {
    const { email, factorId, authenticator } = await enrolled();
    const again = await passwordSession(email);
    const aal = await again.client.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    const requested = await challenge(again.token, factorId);
    expect(requested.webauthn.type).toBe("request");
    const options = requested.webauthn.credential_options.publicKey;
    expect(options.allowCredentials).toEqual([
      expect.objectContaining({ id: authenticator.credentials[0]?.id.toString("base64url") }),
    ]);
    const verified = await call(again.token, `/factors/${factorId}/verify`, {
      challenge_id: requested.id,
      webauthn: { type: "request", credential_response: authenticator.assert(options) },
    });
    expect(verified.status).toBe(200);
    expect(decodeJwt(String(verified.body.access_token))).toMatchObject({ aal: "aal2" });

    const replay = await call(again.token, `/factors/${factorId}/verify`, {
      challenge_id: requested.id,
      webauthn: { type: "request", credential_response: authenticator.assert(options) },
    });
    expect(replay.status).toBe(422);
  });

  it("refuses an answer from another origin, of the wrong type, or by another authenticator", async () => {
    const { email, factorId, authenticator } = await enrolled();
    const again = await passwordSession(email);
    for (const [type, response] of [
      [
        "request",
        (o: Record<string, unknown>) => authenticator.assert(o, { origin: "https://evil.example" }),
      ],
      ["create", (o: Record<string, unknown>) => authenticator.assert(o)],
      [
        "request",
        (o: Record<string, unknown>) => {
          const other = new SoftwareAuthenticator(ORIGIN);
          other.register({ rp: { id: "localhost" }, user: { id: "dXNlcg" }, challenge: "AAAA" });
          return other.assert(o);
        },
      ],
    ] as const) {
      const requested = await challenge(again.token, factorId);
      const refused = await call(again.token, `/factors/${factorId}/verify`, {
        challenge_id: requested.id,
        webauthn: { type, credential_response: response(requested.webauthn.credential_options.publicKey) },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error_code).toBe("webauthn_verification_failed");
    }
    const requested = await challenge(again.token, factorId);
    for (const body of [{}, { webauthn: { type: "sign" } }, { webauthn: { type: "request" } }]) {
      const refused = await call(again.token, `/factors/${factorId}/verify`, {
        challenge_id: requested.id,
        ...body,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error_code).toBe("validation_failed");
    }
  });

  it("ends the user's other aal1 sessions when a factor is verified", async () => {
    const user = await signedIn();
    const other = await passwordSession(user.email);
    const factor = await user.client.mfa.enroll({ factorType: "webauthn" });
    const created = await challenge(user.token, factor.data?.id ?? "");
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await call(user.token, `/factors/${factor.data?.id}/verify`, {
      challenge_id: created.id,
      webauthn: {
        type: "create",
        credential_response: authenticator.register(created.webauthn.credential_options.publicKey),
      },
    });
    const ended = await fetch(`${server.url}/user`, {
      headers: { apikey: anonKey, authorization: `Bearer ${other.token}` },
    });
    expect(ended.status).toBe(403);
    const kept = await fetch(`${server.url}/user`, {
      headers: { apikey: anonKey, authorization: `Bearer ${user.token}` },
    });
    expect(kept.status).toBe(200);
  });
});
