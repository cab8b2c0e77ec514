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
 * Passkeys through auth-js on the built server, with a software authenticator standing in for the
 * browser's: registration after a password sign-in, sign-in with the passkey alone, and the refusals
 * a server must make whatever the client sends.
 */
const ORIGIN = "http://localhost:5173";
const GOOGLE_PASSWORD_MANAGER = "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4";
let ns: FreshNamespace;
let server: ServerProcess;
let admin: GoTrueAdminApi;
let anonKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-passkeys-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  anonKey = await roleKey("anon");
  const env = productionServerEnv(ns, {
    AUTHSVC_PASSKEY_ENABLED: "true",
    AUTHSVC_PASSKEY_MAX_PASSKEYS_PER_USER: "3",
    AUTHSVC_WEBAUTHN_RP_ID: "localhost",
    AUTHSVC_WEBAUTHN_RP_DISPLAY_NAME: "authsvc tests",
    AUTHSVC_WEBAUTHN_RP_ORIGINS: ORIGIN,
    AUTHSVC_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
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
const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

async function signedIn() {
  const email = `passkey-${Date.now()}-${++counter}@example.com`;
  const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  const auth = client();
  const { error } = await auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return { auth, email, userId: created.data.user.id };
}

/** Registers a passkey of `authenticator` for the signed-in client. */
async function registerPasskey(auth: GoTrueClient, authenticator: SoftwareAuthenticator) {
  const started = await auth.passkey.startRegistration();
  if (started.error) throw started.error;
  const credential = authenticator.register(started.data.options as unknown as Record<string, unknown>);
  return auth.passkey.verifyRegistration({
    challengeId: started.data.challenge_id,
    credential: credential as never,
  });
}

async function signInOptions(auth = client()) {
  const started = await auth.passkey.startAuthentication();
  if (started.error) throw started.error;
  return started.data;
}

/** The reference's error body. */
const errorCode = async (answer: Response) => ((await answer.json()) as { error_code?: string }).error_code;

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: anonKey },
    body: JSON.stringify(body),
  });

describe("passkeys through auth-js", () => {
  it("registers a passkey after a password sign-in, then signs in with it alone (aal1, amr passkey)", async () => {
    const { auth, userId } = await signedIn();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const settings = (await (
      await fetch(`${server.url}/settings`, { headers: { apikey: anonKey } })
    ).json()) as {
      passkeys_enabled: boolean;
    };
    expect(settings.passkeys_enabled).toBe(true);

    const started = await auth.passkey.startRegistration();
    expect(started.error).toBeNull();
    const options = started.data?.options as unknown as Record<string, unknown>;
    expect(options).toMatchObject({
      rp: { id: "localhost", name: "authsvc tests" },
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      attestation: "none",
    });
    expect(Buffer.from((options.user as { id: string }).id, "base64url").toString()).toBe(userId);
    expect(started.data?.expires_at).toBeGreaterThan(Date.now() / 1000 + 250);
    const registered = await auth.passkey.verifyRegistration({
      challengeId: started.data?.challenge_id ?? "",
      credential: authenticator.register(options) as never,
    });
    expect(registered.error).toBeNull();
    expect(registered.data).toMatchObject({ friendly_name: "Passkey" });
    await auth.signOut();

    const fresh = client();
    const events: string[] = [];
    fresh.onAuthStateChange((event) => {
      events.push(event);
    });
    const challenge = await signInOptions(fresh);
    expect(challenge.options).toMatchObject({ rpId: "localhost", userVerification: "preferred" });
    expect(challenge.options).not.toHaveProperty("allowCredentials");
    const signedInWithPasskey = await fresh.passkey.verifyAuthentication({
      challengeId: challenge.challenge_id,
      credential: authenticator.assert(challenge.options as unknown as Record<string, unknown>) as never,
    });
    expect(signedInWithPasskey.error).toBeNull();
    const session = (await fresh.getSession()).data.session;
    expect(session?.user.id).toBe(userId);
    const claims = decodeJwt(session?.access_token ?? "");
    expect(claims).toMatchObject({ aal: "aal1", amr: [{ method: "passkey" }] });
    expect(events).toContain("SIGNED_IN");

    const listed = await fresh.passkey.list();
    expect(listed.data).toEqual([
      expect.objectContaining({
        id: registered.data?.id,
        friendly_name: "Passkey",
        last_used_at: expect.any(String),
      }),
    ]);
  });

  it("names a passkey after its authenticator model, excludes registered ones, and caps them", async () => {
    const { auth } = await signedIn();
    const google = new SoftwareAuthenticator(ORIGIN, {
      algorithm: "RS256",
      attestation: "packed",
      aaguid: GOOGLE_PASSWORD_MANAGER,
      flags: { be: true, bs: true },
    });
    const first = await registerPasskey(auth, google);
    expect(first.data).toMatchObject({ friendly_name: "Google Password Manager" });
    const again = await auth.passkey.startRegistration();
    const excluded =
      (again.data?.options as unknown as { excludeCredentials: { id: string }[] } | undefined)
        ?.excludeCredentials ?? [];
    expect(excluded.map((c) => c.id)).toEqual([google.credentials[0]?.id.toString("base64url")]);
    expect((await registerPasskey(auth, new SoftwareAuthenticator(ORIGIN))).error).toBeNull();
    expect((await registerPasskey(auth, new SoftwareAuthenticator(ORIGIN))).error).toBeNull();
    const over = await auth.passkey.startRegistration();
    expect(over.error).toMatchObject({ status: 422, code: "too_many_passkeys" });
  });

  it("renames and deletes passkeys; the admin lists and deletes a user's", async () => {
    const { auth, userId } = await signedIn();
    const registered = await registerPasskey(auth, new SoftwareAuthenticator(ORIGIN));
    const id = registered.data?.id ?? "";
    expect((await auth.passkey.update({ passkeyId: id, friendlyName: "Laptop" })).data).toMatchObject({
      id,
      friendly_name: "Laptop",
    });
    expect((await auth.passkey.update({ passkeyId: id, friendlyName: "" })).error).toMatchObject({
      status: 400,
    });
    expect((await auth.passkey.update({ passkeyId: id, friendlyName: "x".repeat(121) })).error).toMatchObject(
      {
        status: 400,
      },
    );
    const other = await signedIn();
    expect((await other.auth.passkey.update({ passkeyId: id, friendlyName: "Mine" })).error).toMatchObject({
      status: 404,
    });
    expect((await other.auth.passkey.delete({ passkeyId: id })).error).toMatchObject({ status: 404 });

    expect((await admin.passkey.listPasskeys({ userId })).data).toEqual([
      expect.objectContaining({ id, friendly_name: "Laptop" }),
    ]);
    const second = await registerPasskey(auth, new SoftwareAuthenticator(ORIGIN));
    expect((await auth.passkey.delete({ passkeyId: id })).error).toBeNull();
    expect(
      (await admin.passkey.deletePasskey({ userId, passkeyId: second.data?.id ?? "" })).error,
    ).toBeNull();
    expect((await admin.passkey.listPasskeys({ userId })).data).toEqual([]);
    expect(
      (await admin.passkey.listPasskeys({ userId: "00000000-0000-4000-8000-000000000000" })).error,
    ).toMatchObject({
      status: 404,
    });
  });

  it("refuses anonymous users", async () => {
    const auth = client();
    expect((await auth.signInAnonymously()).error).toBeNull();
    expect((await auth.passkey.startRegistration()).error).toMatchObject({ status: 403 });
  });
});

describe("passkey sign-in refusals", () => {
  it("gives one challenge to exactly one of 8 concurrent verifications", async () => {
    const { auth } = await signedIn();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await registerPasskey(auth, authenticator);
    const challenge = await signInOptions();
    const credential = authenticator.assert(challenge.options as unknown as Record<string, unknown>);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post("/passkeys/authentication/verify", { challenge_id: challenge.challenge_id, credential }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    const refused = await Promise.all(answers.filter((a) => a.status === 400).map(errorCode));
    expect(new Set(refused)).toEqual(new Set(["webauthn_challenge_not_found"]));
  });

  it.each([
    ["another origin", { origin: "https://evil.example" }],
    ["another RP id", { rpId: "evil.example" }],
    ["no user presence", { flags: { up: false } }],
    ["an unknown user handle", { userHandle: "00000000-0000-4000-8000-000000000000" }],
    ["no user handle", { userHandle: null }],
  ])("refuses %s, and the challenge is gone", async (_, tamper) => {
    const { auth } = await signedIn();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await registerPasskey(auth, authenticator);
    const challenge = await signInOptions();
    const credential = authenticator.assert(challenge.options as unknown as Record<string, unknown>, tamper);
    const refused = await post("/passkeys/authentication/verify", {
      challenge_id: challenge.challenge_id,
      credential,
    });
    expect(refused.status).toBe(400);
    expect(await errorCode(refused)).toBe("webauthn_verification_failed");
    const honest = authenticator.assert(challenge.options as unknown as Record<string, unknown>);
    const replay = await post("/passkeys/authentication/verify", {
      challenge_id: challenge.challenge_id,
      credential: honest,
    });
    expect(await errorCode(replay)).toBe("webauthn_challenge_not_found");
  });

  it("refuses another user's credential under this user's handle", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await registerPasskey(alice.auth, authenticator);
    await registerPasskey(bob.auth, new SoftwareAuthenticator(ORIGIN));
    const challenge = await signInOptions();
    const credential = authenticator.assert(challenge.options as unknown as Record<string, unknown>, {
      userHandle: bob.userId,
    });
    const refused = await post("/passkeys/authentication/verify", {
      challenge_id: challenge.challenge_id,
      credential,
    });
    expect(refused.status).toBe(400);
    expect(await errorCode(refused)).toBe("webauthn_verification_failed");
  });

  it("refuses a credential id registered already, to another user, and the first owner still signs in", async () => {
    const alice = await signedIn();
    const hers = new SoftwareAuthenticator(ORIGIN);
    await registerPasskey(alice.auth, hers);
    const stolenId = hers.credentials[0]?.id.toString("base64url") ?? "";
    const mallory = await signedIn();
    const copy = new SoftwareAuthenticator(ORIGIN);
    const started = await mallory.auth.passkey.startRegistration();
    const options = started.data?.options as unknown as Record<string, unknown>;
    const refused = await mallory.auth.passkey.verifyRegistration({
      challengeId: started.data?.challenge_id ?? "",
      credential: copy.register(options, { credentialId: stolenId }) as never,
    });
    expect(refused.error).toMatchObject({ status: 422, code: "webauthn_credential_exists" });
    expect((await mallory.auth.passkey.list()).data).toEqual([]);
    const challenge = await signInOptions();
    const signed = await post("/passkeys/authentication/verify", {
      challenge_id: challenge.challenge_id,
      credential: hers.assert(challenge.options as unknown as Record<string, unknown>),
    });
    expect(signed.status).toBe(200);
    expect(((await signed.json()) as { user: { id: string } }).user.id).toBe(alice.userId);
  });

  it("refuses a user banned between the options and the verification, spending nothing", async () => {
    const { auth, userId } = await signedIn();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await registerPasskey(auth, authenticator);
    const challenge = await signInOptions();
    expect((await admin.updateUserById(userId, { ban_duration: "24h" })).error).toBeNull();
    const options = challenge.options as unknown as Record<string, unknown>;
    const refused = await post("/passkeys/authentication/verify", {
      challenge_id: challenge.challenge_id,
      credential: authenticator.assert(options),
    });
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe("user_banned");
    const counterAtBan = authenticator.credentials[0]?.counter ?? 0;
    // Whoever does not hold the passkey learns nothing of the ban.
    const forged = await signInOptions();
    const stranger = await post("/passkeys/authentication/verify", {
      challenge_id: forged.challenge_id,
      credential: authenticator.assert(forged.options as unknown as Record<string, unknown>, {
        origin: "https://evil.example",
      }),
    });
    expect(await errorCode(stranger)).toBe("webauthn_verification_failed");
    expect((await admin.updateUserById(userId, { ban_duration: "none" })).error).toBeNull();
    const again = await signInOptions();
    // The refused sign-in did not record its counter: the same value signs in once the ban is lifted.
    const signed = await post("/passkeys/authentication/verify", {
      challenge_id: again.challenge_id,
      credential: authenticator.assert(again.options as unknown as Record<string, unknown>, {
        signCount: counterAtBan,
      }),
    });
    expect(signed.status).toBe(200);
  });

  it("refuses a replayed assertion (the counter did not advance) on a new challenge", async () => {
    const { auth } = await signedIn();
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    await registerPasskey(auth, authenticator);
    const first = await signInOptions();
    const options = first.options as unknown as Record<string, unknown>;
    const signed = await post("/passkeys/authentication/verify", {
      challenge_id: first.challenge_id,
      credential: authenticator.assert(options),
    });
    expect(signed.status).toBe(200);
    const second = await signInOptions();
    const stale = authenticator.assert(second.options as unknown as Record<string, unknown>, {
      signCount: 1,
    });
    const refused = await post("/passkeys/authentication/verify", {
      challenge_id: second.challenge_id,
      credential: stale,
    });
    expect(refused.status).toBe(400);
  });

  it.each([
    ["no body fields", {}, 400, "validation_failed"],
    ["a challenge id that is not a UUID", { challenge_id: "x", credential: {} }, 400, "validation_failed"],
    ["no credential", { challenge_id: "00000000-0000-4000-8000-000000000000" }, 400, "validation_failed"],
    [
      "an unknown challenge",
      { challenge_id: "00000000-0000-4000-8000-000000000000", credential: {} },
      400,
      "webauthn_challenge_not_found",
    ],
  ])("answers %s with a JSON error", async (_, body, status, code) => {
    const answer = await post("/passkeys/authentication/verify", body);
    expect(answer.status).toBe(status);
    expect(await errorCode(answer)).toBe(code);
  });

  it("answers a malformed credential with a JSON error, not a crash", async () => {
    for (const credential of [
      "x",
      1,
      [],
      { id: 1 },
      { id: "AQID", rawId: "AQID", type: "public-key", response: { clientDataJSON: "!!" } },
    ]) {
      const challenge = await signInOptions();
      const answer = await post("/passkeys/authentication/verify", {
        challenge_id: challenge.challenge_id,
        credential,
      });
      expect(answer.status).toBe(400);
      expect(await errorCode(answer)).toBe("webauthn_verification_failed");
    }
  });
});
