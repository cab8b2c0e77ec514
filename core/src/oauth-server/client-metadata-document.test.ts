import { describe, expect, it } from "vitest";
import { hexToBase64Url } from "../pkce/index.js";
import { aUser, fakeDeps } from "../testing/index.js";
import { startAuthorization } from "./authorize.js";
import { authenticateClient } from "./client-auth.js";
import { clientIdUrlProblem, resolveClient } from "./client-metadata-document.js";
import { deleteClient, findClient, updateClient } from "./clients.js";
import { authorizationDetails, decideConsent } from "./consent.js";
import type { FetchedClientDocument } from "./ports/client-metadata-documents.js";
import type { ClientMetadataDocumentSettings } from "./settings.js";
import { exchangeAuthorizationCode, refreshForClient } from "./token-grants.js";
import { revokeToken } from "./token-introspection.js";
import { revokeConsent } from "./user-consents.js";

const URL_ID = "https://app.example/oauth/client.json";
const REDIRECT = "https://app.example/cb";
const VERIFIER = "v".repeat(64);
const SETTINGS: ClientMetadataDocumentSettings = {
  enabled: true,
  allowedHosts: [],
  minCacheSeconds: 300,
  maxCacheSeconds: 86_400,
  allowLoopbackForTests: false,
};
const FIRST = { firstUse: true } as const;
const DOCUMENT = { client_id: URL_ID, client_name: "App", redirect_uris: [REDIRECT] };

/** Deps with client metadata documents on, and a fake fetcher answering `documents` (counting fetches). */
function setup(settings: Partial<ClientMetadataDocumentSettings> = {}) {
  const base = fakeDeps();
  const documents = new Map<string, FetchedClientDocument>([
    [URL_ID, { ok: true, document: DOCUMENT, maxAgeSeconds: null }],
  ]);
  const fetched: string[] = [];
  const deps = {
    ...base,
    settings: {
      ...base.settings,
      oauthServer: { ...base.settings.oauthServer, clientMetadataDocuments: { ...SETTINGS, ...settings } },
    },
    clientDocuments: {
      fetch: async (url: string): Promise<FetchedClientDocument> => {
        fetched.push(url);
        return documents.get(url) ?? { ok: false, problem: "the document's URL answered 404" };
      },
    },
  };
  return { deps, documents, fetched };
}

const serve = (
  documents: Map<string, FetchedClientDocument>,
  document: unknown,
  maxAgeSeconds: number | null = null,
) => documents.set(URL_ID, { ok: true, document, maxAgeSeconds });

describe("clientIdUrlProblem", () => {
  it("accepts an https URL with a path and refuses what the draft refuses", () => {
    expect(clientIdUrlProblem(URL_ID, SETTINGS)).toBeNull();
    expect(clientIdUrlProblem("https://app.example/c?v=1", SETTINGS)).toBeNull();
    for (const url of [
      "http://app.example/client.json",
      "https://app.example",
      "https://app.example/",
      "https://app.example/client.json#x",
      "https://user@app.example/client.json",
      "https://app.example/a/../client.json",
      "https://app.example/./client.json",
      "https://2130706433/client.json",
      "https://APP.example/client.json",
      "https://app.example:443/client.json",
      `https://app.example/${"a".repeat(2048)}`,
    ])
      expect(clientIdUrlProblem(url, SETTINGS), url).not.toBeNull();
  });

  it("takes http on the loopback only with the test switch, and honours the allowed hosts", () => {
    expect(clientIdUrlProblem("http://127.0.0.1:8080/c.json", SETTINGS)).not.toBeNull();
    const loopback = { ...SETTINGS, allowLoopbackForTests: true };
    expect(clientIdUrlProblem("http://127.0.0.1:8080/c.json", loopback)).toBeNull();
    expect(clientIdUrlProblem("http://10.0.0.1/c.json", loopback)).not.toBeNull();
    const hosts = { ...SETTINGS, allowedHosts: ["*.example.com"] };
    expect(clientIdUrlProblem("https://mcp.example.com/c.json", hosts)).toBeNull();
    expect(clientIdUrlProblem(URL_ID, hosts)).toBe("host app.example is not allowed");
  });
});

describe("resolveClient", () => {
  it("fetches the document once, stores the client under a UUID, and answers it by its URL", async () => {
    const { deps, fetched } = setup();
    const first = await resolveClient(deps, URL_ID, FIRST);
    expect(first).toMatchObject({
      ok: true,
      value: { metadataUrl: URL_ID, clientType: "public", authMethod: "none", redirectUris: [REDIRECT] },
    });
    const again = await resolveClient(deps, URL_ID, FIRST);
    expect(again.ok && first.ok && again.value?.id).toBe(first.ok && first.value?.id);
    expect(fetched).toEqual([URL_ID]);
  });

  it("stores a client only on its first use at /oauth/authorize: elsewhere an unseen URL is no client", async () => {
    const { deps, fetched } = setup();
    expect(await resolveClient(deps, URL_ID)).toEqual({ ok: true, value: null });
    expect(await authenticateClient(deps, { basic: false, clientId: URL_ID })).toMatchObject({
      ok: false,
      error: { code: "invalid_credentials" },
    });
    expect(fetched).toEqual([]);
    await resolveClient(deps, URL_ID, FIRST);
    expect(await resolveClient(deps, URL_ID)).toMatchObject({ ok: true, value: { metadataUrl: URL_ID } });
  });

  it("is no client while the feature is off, or for a URL a UUID store cannot hold", async () => {
    const { deps, fetched } = setup({ enabled: false });
    expect(await resolveClient(deps, URL_ID, FIRST)).toEqual({ ok: true, value: null });
    expect(await resolveClient(deps, "not-a-client")).toEqual({ ok: true, value: null });
    expect(fetched).toEqual([]);
  });

  it("keeps the document its max-age within the floor and the ceiling, then fetches it again", async () => {
    const { deps, documents, fetched } = setup();
    serve(documents, DOCUMENT, 0);
    await resolveClient(deps, URL_ID, FIRST);
    deps.clock.advance(299_000);
    await resolveClient(deps, URL_ID, FIRST);
    expect(fetched).toHaveLength(1);
    deps.clock.advance(2_000);
    serve(documents, DOCUMENT, 10 * 86_400);
    await resolveClient(deps, URL_ID, FIRST);
    expect(fetched).toHaveLength(2);
    deps.clock.advance(86_399_000);
    await resolveClient(deps, URL_ID, FIRST);
    expect(fetched).toHaveLength(2);
    deps.clock.advance(2_000);
    await resolveClient(deps, URL_ID, FIRST);
    expect(fetched).toHaveLength(3);
  });

  it("refuses an invalid document as invalid_client with the reason", async () => {
    const cases: [unknown, string][] = [
      [[DOCUMENT], "JSON object"],
      [{ ...DOCUMENT, client_id: "https://other.example/c.json" }, "client_id must be the document's URL"],
      [{ ...DOCUMENT, client_id: `${URL_ID}/` }, "client_id must be the document's URL"],
      [{ ...DOCUMENT, client_secret: "s" }, "client_secret"],
      [{ ...DOCUMENT, token_endpoint_auth_method: "client_secret_basic" }, "only 'none'"],
      [{ ...DOCUMENT, redirect_uris: [] }, "redirect_uris is required"],
      [{ ...DOCUMENT, redirect_uris: ["http://evil.example/cb"] }, "only allowed for localhost"],
      [{ ...DOCUMENT, redirect_uris: ["http://evil.test\\@localhost/cb"] }, "invalid redirect_uri"],
      [{ ...DOCUMENT, redirect_uris: Array.from({ length: 11 }, (_, i) => `${REDIRECT}${i}`) }, "10 URIs"],
      [{ ...DOCUMENT, client_name: "n".repeat(1025) }, "client_name must be at most 1024"],
      [{ ...DOCUMENT, logo_uri: "javascript:alert(1)" }, "logo_uri must be an absolute http(s) URL"],
      [{ ...DOCUMENT, client_uri: 5 }, "client_uri must be a string"],
    ];
    for (const [document, reason] of cases) {
      const { deps, documents } = setup();
      serve(documents, document);
      const resolved = await resolveClient(deps, URL_ID, FIRST);
      expect(resolved.ok, reason).toBe(false);
      if (!resolved.ok) {
        expect(resolved.error.code).toBe("invalid_client");
        expect(resolved.error.message).toContain(reason);
      }
    }
  });

  it("answers a failed fetch as invalid_client, and never uses a stale copy past its time", async () => {
    const { deps, documents } = setup();
    await resolveClient(deps, URL_ID, FIRST);
    deps.clock.advance(301_000);
    documents.set(URL_ID, { ok: false, problem: "no answer within 5 seconds" });
    expect(await resolveClient(deps, URL_ID, FIRST)).toMatchObject({
      ok: false,
      error: {
        code: "invalid_client",
        message: "client metadata document could not be fetched: no answer within 5 seconds",
      },
    });
  });
});

/** A user approving a code request of the URL client. */
async function codeFor(deps: ReturnType<typeof setup>["deps"]) {
  const user = aUser({ emailConfirmedAt: deps.clock.now(), lastSignInAt: deps.clock.now() });
  deps.store.tables.users.set(user.id, user);
  const started = await startAuthorization(deps, {
    clientId: URL_ID,
    redirectUri: REDIRECT,
    scope: "openid email",
    codeChallenge: hexToBase64Url(deps.tokens.hash(VERIFIER)),
    codeChallengeMethod: "S256",
  });
  if (!started.ok) throw started.error;
  const authorizationId = new URL(started.value.location).searchParams.get("authorization_id") as string;
  const details = await authorizationDetails(deps, { authorizationId, userId: user.id });
  expect(details).toMatchObject({ ok: true, value: { kind: "details", client: { metadataUrl: URL_ID } } });
  const decided = await decideConsent(deps, { authorizationId, userId: user.id, action: "approve" });
  if (!decided.ok) throw decided.error;
  return { user, code: new URL(decided.value.redirectUrl).searchParams.get("code") as string };
}

describe("a client metadata document's client in the code flow", () => {
  it("gets tokens that name its URL as client_id, refreshes them, and its grant is revoked by its URL", async () => {
    const { deps } = setup();
    const { user, code } = await codeFor(deps);
    const client = await authenticateClient(deps, { basic: false, clientId: URL_ID });
    if (!client.ok) throw client.error;
    const tokens = await exchangeAuthorizationCode(deps, {
      dpop: null,
      client: client.value,
      code,
      codeVerifier: VERIFIER,
      redirectUri: REDIRECT,
    });
    if (!tokens.ok) throw tokens.error;
    expect(JSON.parse(tokens.value.accessToken.slice(4))).toMatchObject({ client_id: URL_ID, sub: user.id });
    expect(deps.idTokens).toMatchObject({
      signed: [expect.objectContaining({ aud: [URL_ID], client_id: URL_ID })],
    });
    const refreshed = await refreshForClient(deps, {
      dpop: null,
      client: client.value,
      refreshToken: tokens.value.refreshToken,
    });
    if (!refreshed.ok) throw refreshed.error;
    expect(JSON.parse(refreshed.value.accessToken.slice(4))).toMatchObject({ client_id: URL_ID });
    // RFC 7009 by the client itself: its access token names it by its URL, and its session ends.
    await revokeToken(deps, { client: client.value, token: refreshed.value.accessToken });
    expect(
      await refreshForClient(deps, {
        dpop: null,
        client: client.value,
        refreshToken: refreshed.value.refreshToken,
      }),
    ).toMatchObject({
      ok: false,
    });
    const actor = { userId: user.id, actorUsername: "" };
    expect(await revokeConsent(deps, { ...actor, clientId: URL_ID })).toEqual({ ok: true, value: undefined });
    expect(await revokeConsent(deps, { ...actor, clientId: "https://unknown.example/c.json" })).toMatchObject(
      {
        ok: false,
        error: { code: "oauth_consent_not_found" },
      },
    );
    expect(await revokeConsent(deps, { ...actor, clientId: URL_ID })).toMatchObject({
      ok: false,
      error: { code: "oauth_consent_not_found" },
    });
  });

  it("refuses the code once the document no longer lists the redirect URI it went to", async () => {
    const { deps, documents } = setup();
    const { code } = await codeFor(deps);
    deps.clock.advance(301_000);
    serve(documents, { ...DOCUMENT, redirect_uris: ["https://app.example/other"] });
    const client = await authenticateClient(deps, { basic: false, clientId: URL_ID });
    if (!client.ok) throw client.error;
    expect(
      await exchangeAuthorizationCode(deps, {
        dpop: null,
        client: client.value,
        code,
        codeVerifier: VERIFIER,
      }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_grant", message: "redirect_uri does not match the authorization request" },
    });
  });

  it("refuses a secret, and a request whose redirect URI the document does not list", async () => {
    const { deps } = setup();
    expect(
      await authenticateClient(deps, { basic: false, clientId: URL_ID, clientSecret: "s" }),
    ).toMatchObject({
      ok: false,
    });
    expect(
      await startAuthorization(deps, {
        clientId: URL_ID,
        redirectUri: "https://app.example/elsewhere",
        codeChallenge: "c".repeat(43),
        codeChallengeMethod: "S256",
      }),
    ).toMatchObject({ ok: false, error: { code: "validation_failed", message: "invalid redirect_uri" } });
  });

  it("lets the admin read and delete it by its URL, but not change it", async () => {
    const { deps, fetched } = setup();
    await resolveClient(deps, URL_ID, FIRST);
    expect(await findClient(deps, URL_ID)).toMatchObject({ ok: true, value: { metadataUrl: URL_ID } });
    expect(await updateClient(deps, { id: URL_ID, fields: { name: "Other" } })).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
    expect(await deleteClient(deps, URL_ID)).toEqual({ ok: true, value: undefined });
    expect(await findClient(deps, URL_ID)).toMatchObject({
      ok: false,
      error: { code: "oauth_client_not_found" },
    });
    // Its next use fetches the document again, as a new client.
    await resolveClient(deps, URL_ID, FIRST);
    expect(fetched).toHaveLength(2);
  });
});
