import { describe, expect, it } from "vitest";
import { fakeAssertion, fakeClientAssertions, fakeDeps } from "../testing/index.js";
import { authenticateClient, JWT_BEARER_ASSERTION_TYPE } from "./client-auth.js";
import { registerClient, updateClient } from "./clients.js";

const ISSUER = "http://localhost:9999";
const TOKEN_ENDPOINT = `${ISSUER}/oauth/token`;
const KEY = { kty: "EC", crv: "P-256", x: "x", y: "y", kid: "k1" };
const REMOTE = "https://keys.client.example/jwks.json";

async function setup(
  method: "private_key_jwt" | "client_secret_jwt",
  keys: { jwks?: unknown; jwksUri?: string } = { jwks: { keys: [KEY] } },
) {
  const deps = { ...fakeDeps(), clientAssertions: fakeClientAssertions() };
  const registered = await registerClient(deps, {
    registrationType: "manual",
    redirectUris: ["https://app.example/cb"],
    authMethod: method,
    ...(method === "private_key_jwt" ? keys : {}),
  });
  if (!registered.ok) throw registered.error;
  const { client, secret } = registered.value;
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  let n = 0;
  const claims = (over: Record<string, unknown> = {}) => ({
    iss: client.id,
    sub: client.id,
    aud: TOKEN_ENDPOINT,
    exp: now + 60,
    iat: now,
    jti: `jti-${++n}`,
    ...over,
  });
  const signedWith = method === "private_key_jwt" ? "key:k1" : `secret:${secret}`;
  const header = method === "private_key_jwt" ? { alg: "ES256", kid: "k1" } : { alg: "HS256" };
  const assertion = (
    over: Record<string, unknown> = {},
    h: Record<string, unknown> = header,
    s = signedWith,
  ) => fakeAssertion(h, claims(over), s);
  const auth = (a: string, extra: Record<string, unknown> = {}) =>
    authenticateClient(deps, {
      basic: false,
      assertionType: JWT_BEARER_ASSERTION_TYPE,
      assertion: a,
      ...extra,
    });
  return { deps, client, secret, assertion, auth, now };
}

const refused = { ok: false, error: { code: "invalid_credentials" } };

describe("client assertions (RFC 7523)", () => {
  it("accepts private_key_jwt signed by a registered key, with aud the token endpoint or the issuer", async () => {
    const { auth, assertion, client } = await setup("private_key_jwt");
    expect(await auth(assertion())).toMatchObject({ ok: true, value: { id: client.id } });
    expect(await auth(assertion({ aud: ISSUER }))).toMatchObject({ ok: true });
    expect(await auth(assertion({ aud: ["https://other.example", `${ISSUER}/oauth/par`] }))).toMatchObject({
      ok: true,
    });
    expect(await auth(assertion(), { clientId: client.id })).toMatchObject({ ok: true });
  });

  it("accepts client_secret_jwt: an HMAC with the secret, kept sealed", async () => {
    const { auth, assertion, client } = await setup("client_secret_jwt");
    expect(client.secretSealed).toMatch(/^sealed\(/);
    expect(await auth(assertion())).toMatchObject({ ok: true });
    expect(await auth(assertion({}, { alg: "HS256" }, "secret:wrong"))).toMatchObject(refused);
  });

  it("refuses a replayed jti, until it expires", async () => {
    const { auth, assertion } = await setup("private_key_jwt");
    const once = assertion({ jti: "same" });
    expect(await auth(once)).toMatchObject({ ok: true });
    expect(await auth(once)).toMatchObject(refused);
    expect(await auth(assertion({ jti: "same" }))).toMatchObject(refused);
  });

  it.each([
    ["a wrong aud", { aud: "https://elsewhere.example/token" }],
    ["no aud", { aud: undefined }],
    ["an expired assertion", { exp: -40 }],
    ["no exp", { exp: undefined }],
    ["an exp too far away", { exp: 3600 }],
    ["an iat in the future", { iat: 120 }],
    ["an nbf in the future", { nbf: 120 }],
    ["no jti", { jti: undefined }],
    ["an iss other than the client", { iss: "someone" }],
  ])("refuses %s", async (_name, over) => {
    const { auth, assertion, now } = await setup("private_key_jwt");
    const shifted = Object.fromEntries(
      Object.entries(over).map(([k, v]) => [k, typeof v === "number" && k !== "jti" ? now + v : v]),
    );
    expect(await auth(assertion(shifted))).toMatchObject(refused);
  });

  it("refuses a sub other than the client, or a client_id other than the sub", async () => {
    const { auth, assertion, client } = await setup("private_key_jwt");
    expect(await auth(assertion({ sub: "00000000-0000-4000-8000-000000000000" }))).toMatchObject(refused);
    expect(await auth(assertion(), { clientId: "00000000-0000-4000-8000-000000000000" })).toMatchObject(
      refused,
    );
    expect(await auth(assertion(), { clientId: client.id, clientSecret: "x" })).toMatchObject(refused);
    expect(await auth(assertion(), { basic: true, clientId: client.id, clientSecret: "x" })).toMatchObject(
      refused,
    );
  });

  it("refuses alg none, an HMAC for private_key_jwt and an asymmetric algorithm for client_secret_jwt", async () => {
    const pk = await setup("private_key_jwt");
    expect(await pk.auth(pk.assertion({}, { alg: "none", kid: "k1" }))).toMatchObject(refused);
    expect(await pk.auth(pk.assertion({}, { alg: "HS256", kid: "k1" }))).toMatchObject(refused);
    const cs = await setup("client_secret_jwt");
    expect(await cs.auth(cs.assertion({}, { alg: "RS256" }))).toMatchObject(refused);
    expect(await cs.auth(cs.assertion({}, { alg: "none" }))).toMatchObject(refused);
  });

  it("refuses an unknown kid, a wrong assertion type, garbage, and a client registered with another method", async () => {
    const { auth, assertion, deps } = await setup("private_key_jwt");
    expect(await auth(assertion({}, { alg: "ES256", kid: "k2" }, "key:k2"))).toMatchObject(refused);
    expect(
      await authenticateClient(deps, { basic: false, assertionType: "urn:other", assertion: assertion() }),
    ).toMatchObject(refused);
    expect(await auth("not.a.jwt")).toMatchObject(refused);
    const basic = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: ["https://a.example/cb"],
    });
    if (!basic.ok) throw basic.error;
    const id = basic.value.client.id;
    const forged = assertion({ iss: id, sub: id }, { alg: "HS256" }, `secret:${basic.value.secret}`);
    expect(await auth(forged)).toMatchObject({ ok: false, error: { code: "invalid_credentials" } });
  });

  it("refuses a private_key_jwt client's secret-based authentication", async () => {
    const { deps, client } = await setup("private_key_jwt");
    expect(
      await authenticateClient(deps, { basic: true, clientId: client.id, clientSecret: "anything" }),
    ).toMatchObject(refused);
  });

  it("verifies with the keys of jwks_uri", async () => {
    const { auth, assertion, deps } = await setup("private_key_jwt", { jwksUri: REMOTE });
    deps.clientAssertions.remote.set(REMOTE, { keys: [KEY] });
    expect(await auth(assertion())).toMatchObject({ ok: true });
  });

  it("a client turned to client_secret_jwt has no readable secret until a new one is issued", async () => {
    const deps = fakeDeps();
    const made = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: ["https://a.example/cb"],
    });
    if (!made.ok) throw made.error;
    const updated = await updateClient(deps, {
      id: made.value.client.id,
      fields: { authMethod: "client_secret_jwt" },
    });
    expect(updated).toMatchObject({
      ok: true,
      value: { authMethod: "client_secret_jwt", secretSealed: null },
    });
  });
});

describe("client keys at registration", () => {
  const base = { registrationType: "dynamic" as const, redirectUris: ["https://app.example/cb"] };
  it.each([
    [
      { authMethod: "private_key_jwt", jwks: { keys: [KEY] }, jwksUri: REMOTE },
      "jwks and jwks_uri must not both be given",
    ],
    [
      { authMethod: "private_key_jwt", jwks: { keys: [{ ...KEY, d: "private" }] } },
      "jwks must hold public keys only",
    ],
    [
      { authMethod: "private_key_jwt", jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } },
      "jwks must hold public keys only",
    ],
    [{ authMethod: "private_key_jwt", jwks: { keys: [] } }, "jwks must hold a non-empty keys array"],
    [{ authMethod: "private_key_jwt", jwks: "keys" }, "jwks must be a JSON Web Key Set"],
    [
      { authMethod: "private_key_jwt", jwksUri: "ftp://keys.example/jwks" },
      "jwks_uri must be an absolute https URL (plain http reaches loopback only in tests)",
    ],
    [
      { authMethod: "client_secret_basic", jwks: { keys: [KEY] } },
      "jwks and jwks_uri are for token_endpoint_auth_method 'private_key_jwt'",
    ],
  ])("refuses %j", async (fields, problem) => {
    expect(await registerClient(fakeDeps(), { ...base, ...fields })).toMatchObject({
      ok: false,
      error: { code: "validation_failed", message: problem },
    });
  });

  it("registers a private_key_jwt client without a secret", async () => {
    const made = await registerClient(fakeDeps(), {
      ...base,
      authMethod: "private_key_jwt",
      jwksUri: REMOTE,
    });
    expect(made).toMatchObject({
      ok: true,
      value: {
        secret: null,
        client: { clientType: "confidential", secretHash: null, jwksUri: REMOTE, jwks: null },
      },
    });
  });
});
