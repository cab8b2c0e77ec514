import { describe, expect, it } from "vitest";
import { fakeAssertion, fakeClientAssertions, fakeDeps } from "../testing/index.js";
import { authenticateClient, JWT_BEARER_ASSERTION_TYPE } from "./client-auth.js";
import { clientFromDocument, resolveClient } from "./client-metadata-document.js";
import type { FetchedClientDocument } from "./ports/client-metadata-documents.js";

const URL_ID = "https://agent.example/oauth/client.json";
const REDIRECT = "https://agent.example/cb";
const ISSUER = "http://localhost:9999";
const KEY = { kty: "EC", crv: "P-256", x: "x", y: "y", kid: "k1" };
const KEYED = {
  client_id: URL_ID,
  client_name: "Agent",
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: "private_key_jwt",
  jwks: { keys: [KEY] },
};
const BASE = { id: "00000000-0000-4000-8000-000000000001", now: new Date(0), expiresAt: new Date(300_000) };

/** Deps with documents on, the fake assertion verifier, and `document` served at URL_ID. */
function setup(document: unknown) {
  const base = fakeDeps();
  const deps = {
    ...base,
    clientAssertions: fakeClientAssertions(),
    settings: {
      ...base.settings,
      oauthServer: {
        ...base.settings.oauthServer,
        clientMetadataDocuments: {
          enabled: true,
          allowedHosts: [],
          minCacheSeconds: 300,
          maxCacheSeconds: 86_400,
          allowLoopbackForTests: false,
        },
      },
    },
    clientDocuments: {
      fetch: async (url: string): Promise<FetchedClientDocument> =>
        url === URL_ID ? { ok: true, document, maxAgeSeconds: null } : { ok: false, problem: "404" },
    },
  };
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  let n = 0;
  const assertion = (over: Record<string, unknown> = {}, signedWith = "key:k1") =>
    fakeAssertion(
      { alg: "ES256", kid: "k1" },
      {
        iss: URL_ID,
        sub: URL_ID,
        aud: `${ISSUER}/oauth/token`,
        exp: now + 60,
        iat: now,
        jti: `j${++n}`,
        ...over,
      },
      signedWith,
    );
  const auth = (a: string) =>
    authenticateClient(deps, { basic: false, assertionType: JWT_BEARER_ASSERTION_TYPE, assertion: a });
  return { deps, assertion, auth };
}

const refusedDocument = (problem: RegExp) => ({
  ok: false,
  error: { failure: "clientDocumentRefused", message: expect.stringMatching(problem) },
});

describe("a client metadata document's client with private_key_jwt", () => {
  it("is a confidential client whose keys are the document's jwks, or its jwks_uri", () => {
    expect(clientFromDocument(URL_ID, KEYED, BASE)).toMatchObject({
      ok: true,
      value: {
        clientType: "confidential",
        authMethod: "private_key_jwt",
        jwks: { keys: [KEY] },
        jwksUri: null,
      },
    });
    const { jwks: _jwks, ...remote } = KEYED;
    const jwksUri = "https://agent.example/jwks.json";
    expect(clientFromDocument(URL_ID, { ...remote, jwks_uri: jwksUri }, BASE)).toMatchObject({
      ok: true,
      value: { clientType: "confidential", jwks: null, jwksUri },
    });
  });

  it("authenticates with an assertion whose iss and sub are the URL, signed by a key of the document, once", async () => {
    const { deps, assertion, auth } = setup(KEYED);
    expect(await resolveClient(deps, URL_ID, { firstUse: true })).toMatchObject({ ok: true });
    const first = assertion({ jti: "once" });
    expect(await auth(first)).toMatchObject({ ok: true, value: { metadataUrl: URL_ID } });
    // Replayed, signed by another key, or naming the row's id instead of the URL: refused alike.
    expect(await auth(first)).toMatchObject({ ok: false, error: { code: "invalid_credentials" } });
    expect(await auth(assertion({}, "key:other"))).toMatchObject({
      ok: false,
      error: { code: "invalid_credentials" },
    });
    const stored = await deps.store.oauthClients.findByMetadataUrl(URL_ID);
    expect(await auth(assertion({ iss: stored?.id, sub: stored?.id }))).toMatchObject({
      ok: false,
      error: { code: "invalid_credentials" },
    });
  });

  it("a URL never used at /oauth/authorize is no client; a document's public client has no assertion", async () => {
    expect(await setup(KEYED).auth(setup(KEYED).assertion())).toMatchObject({
      ok: false,
      error: { code: "invalid_credentials" },
    });
    const { deps, assertion, auth } = setup({
      ...KEYED,
      token_endpoint_auth_method: "none",
      jwks: undefined,
    });
    await resolveClient(deps, URL_ID, { firstUse: true });
    expect(await auth(assertion())).toMatchObject({ ok: false });
  });

  it("refuses hostile documents: secrets, private or symmetric keys, oversized key sets, keys without the method", () => {
    const many = { keys: Array.from({ length: 21 }, (_, i) => ({ ...KEY, kid: `k${i}` })) };
    const huge = { keys: [{ ...KEY, x: "x".repeat(17_000) }] };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ token_endpoint_auth_method: "client_secret_basic" }, /only 'none' or 'private_key_jwt'/],
      [{ token_endpoint_auth_method: "client_secret_jwt" }, /only 'none' or 'private_key_jwt'/],
      [{ jwks: { keys: [{ ...KEY, d: "private" }] } }, /public keys only/],
      [{ jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } }, /public keys only/],
      [{ jwks: many }, /more than 20 keys/],
      [{ jwks: huge }, /too large/],
      [{ jwks: "keys" }, /JSON Web Key Set/],
      [{ jwks: undefined }, /needs jwks or jwks_uri/],
      [{ jwks_uri: "https://agent.example/jwks.json" }, /not both/],
      [
        { jwks: undefined, jwks_uri: "ftp://agent.example/jwks.json" },
        /jwks_uri must be an absolute https URL/,
      ],
      [{ jwks: undefined, jwks_uri: 42 }, /jwks_uri must be a string/],
      [{ token_endpoint_auth_method: "none" }, /are for token_endpoint_auth_method 'private_key_jwt'/],
    ];
    for (const [fields, problem] of cases)
      expect(clientFromDocument(URL_ID, { ...KEYED, ...fields }, BASE)).toMatchObject(
        refusedDocument(problem),
      );
  });

  it("never grants client_credentials nor token exchange, whatever the document asks", () => {
    const asked = {
      ...KEYED,
      grant_types: [
        "authorization_code",
        "client_credentials",
        "urn:ietf:params:oauth:grant-type:token-exchange",
        "refresh_token",
      ],
    };
    expect(clientFromDocument(URL_ID, asked, BASE)).toMatchObject({
      ok: true,
      value: { grantTypes: ["authorization_code", "refresh_token"] },
    });
    const defaults = clientFromDocument(URL_ID, KEYED, BASE);
    expect(defaults.ok && defaults.value.grantTypes).not.toContain("client_credentials");
  });
});
