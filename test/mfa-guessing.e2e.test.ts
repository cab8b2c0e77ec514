import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * MFA codes cannot be guessed or replayed, on the built server over a real Postgres: wrong codes
 * through auth-js, parallel ones straight over HTTP (auth-js runs one call at a time per client).
 */
let ns: FreshNamespace;
let server: ServerProcess;
let admin: GoTrueAdminApi;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-mfa-guessing-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startServer(productionServerEnv(ns), { cwd });
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

/** A confirmed user signed in on a client of their own (aal1), with their access token. */
async function signedIn() {
  const email = `guess-${Date.now()}-${++counter}@example.com`;
  const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  const client = new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
  const { data, error } = await client.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return { client, accessToken: data.session.access_token };
}

const totpCode = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: at,
  });

/** A code of ten minutes ago: wrong now (the server accepts one step either side only). */
const wrongCode = (secret: string) => totpCode(secret, Date.now() - 10 * 60_000);

async function enrolTotp(client: GoTrueClient, friendlyName = "authenticator") {
  const { data, error } = await client.mfa.enroll({ factorType: "totp", friendlyName });
  if (error) throw error;
  return { factorId: data.id, secret: data.totp.secret };
}

async function challenge(client: GoTrueClient, factorId: string): Promise<string> {
  const { data, error } = await client.mfa.challenge({ factorId });
  if (error) throw error;
  return data.id;
}

/** `POST path` with the user's token: status and error code. */
async function post(accessToken: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { error_code?: string; code?: string };
  return `${response.status} ${json.error_code ?? json.code ?? "ok"}`;
}

describe("wrong MFA codes", () => {
  it("void a challenge after five: the right code is then refused, and the factor makes the next code wait", async () => {
    const { client } = await signedIn();
    const { factorId, secret } = await enrolTotp(client);
    const challengeId = await challenge(client, factorId);
    for (let i = 0; i < 5; i++) {
      const wrong = await client.mfa.verify({ factorId, challengeId, code: wrongCode(secret) });
      expect(wrong.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    }
    const right = await client.mfa.verify({ factorId, challengeId, code: totpCode(secret) });
    expect(right.error).toMatchObject({
      status: 422,
      code: "mfa_challenge_expired",
      message: `MFA challenge ${challengeId} has taken too many codes, create a new challenge.`,
    });
    const next = await challenge(client, factorId);
    const waiting = await client.mfa.verify({ factorId, challengeId: next, code: totpCode(secret) });
    expect(waiting.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    expect(waiting.error?.message).toMatch(/you can only try again after 1[0-5] seconds\.$/);
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe("aal1");
  });

  it("are counted one after the other: of 20 parallel wrong codes at one challenge, five are checked", async () => {
    const { client, accessToken } = await signedIn();
    const { factorId, secret } = await enrolTotp(client);
    const challengeId = await challenge(client, factorId);
    const verify = (code: string) =>
      post(accessToken, `/factors/${factorId}/verify`, { challenge_id: challengeId, code });
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(wrongCode(secret))));
    expect(answers.filter((a) => a === "422 mfa_verification_failed")).toHaveLength(5);
    expect(answers.filter((a) => a === "422 mfa_challenge_expired")).toHaveLength(15);
    expect(await verify(totpCode(secret))).toBe("422 mfa_challenge_expired");
  });

  it("are counted against the factor: of 20 parallel wrong codes at four challenges, five are checked", async () => {
    const { client, accessToken } = await signedIn();
    const { factorId, secret } = await enrolTotp(client);
    const challenges = await Promise.all([1, 2, 3, 4].map(() => challenge(client, factorId)));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(accessToken, `/factors/${factorId}/verify`, {
          challenge_id: challenges[i % 4],
          code: wrongCode(secret),
        }),
      ),
    );
    expect(answers.filter((a) => a === "422 mfa_verification_failed")).toHaveLength(5);
    expect(answers.filter((a) => a === "429 over_request_rate_limit")).toHaveLength(15);
  });
});

describe("a TOTP code", () => {
  it("proves once: the same code again is refused, the next step's passes", async () => {
    const { client } = await signedIn();
    const { factorId, secret } = await enrolTotp(client);
    const code = totpCode(secret);
    expect((await client.mfa.challengeAndVerify({ factorId, code })).error).toBeNull();
    const replayed = await client.mfa.challengeAndVerify({ factorId, code });
    expect(replayed.error).toMatchObject({
      status: 422,
      code: "mfa_verification_failed",
      message: "TOTP code already used, enter the next code your app shows",
    });
    const next = await client.mfa.challengeAndVerify({
      factorId,
      code: totpCode(secret, Date.now() + 30_000),
    });
    expect(next.error).toBeNull();
  });
});
