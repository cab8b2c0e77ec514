import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey } from "@authsvc/http/testing";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { decodeJwt } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty } from "./support/oauth-relying-party.js";
import { signedInUser, startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * OAuth Client ID Metadata Documents: a client whose `client_id` is the https URL of its metadata,
 * served here by an https server on 127.0.0.1 (a certificate made for the test, which the server is
 * told to trust; the loopback is allowed by the test switch). Driven by oauth4webapi and by the MCP
 * SDK's `auth()` with its `clientMetadataUrl`.
 */
type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let rp: RelyingParty;
let documents: Server;
let origin: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-cimd-"));

interface Served {
  body: string;
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
}
const served = new Map<string, Served>();
const fetches = new Map<string, number>();
/** Serves `document` (JSON) at `path` of the document server; answers its URL. */
function serve(path: string, document: unknown, extra: Partial<Served> = {}): string {
  served.set(path, { body: JSON.stringify(document), ...extra });
  return `${origin}${path}`;
}
/** A valid document for a client at `path`, its `client_id` the URL. */
const documentAt = (path: string, fields: Record<string, unknown> = {}) =>
  serve(path, {
    client_id: `${origin}${path}`,
    client_name: "Acme agent",
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    ...fields,
  });

beforeAll(async () => {
  execFileSync(
    "openssl",
    [
      ...[
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
      ],
      ...["-keyout", join(cwd, "key.pem"), "-out", join(cwd, "cert.pem"), "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  documents = createServer(
    { key: readFileSync(join(cwd, "key.pem")), cert: readFileSync(join(cwd, "cert.pem")) },
    (req, res) => {
      const path = req.url ?? "/";
      fetches.set(path, (fetches.get(path) ?? 0) + 1);
      const found = served.get(path);
      if (!found) return res.writeHead(404).end();
      const answer = () =>
        res
          .writeHead(found.status ?? 200, { "content-type": "application/json", ...found.headers })
          .end(found.body);
      if (found.delayMs) setTimeout(answer, found.delayMs);
      else answer();
    },
  );
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd, {
    AUTHSVC_OAUTH_SERVER_CLIENT_METADATA_DOCUMENTS: "true",
    AUTHSVC_OAUTH_SERVER_ALLOW_LOOPBACK_FOR_TESTS: "true",
    AUTHSVC_OAUTH_SERVER_CLIENT_METADATA_CACHE_MIN: "1s",
    NODE_EXTRA_CA_CERTS: join(cwd, "cert.pem"),
  });
  rp = await relyingParty(server);
}, 60_000);

afterAll(async () => {
  documents?.closeAllConnections();
  await new Promise((resolve) => documents?.close(resolve));
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** `GET /oauth/authorize` for `clientId` as a browser opens it (not followed). */
const openAuthorize = (clientId: string, redirectUri = REDIRECT) =>
  fetch(
    `${rp.as.authorization_endpoint}?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "email",
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
    })}`,
    { redirect: "manual" },
  );

/** The OAuth error `/oauth/authorize` answers the browser for `clientId`. */
async function refusedAtAuthorize(clientId: string, redirectUri = REDIRECT) {
  const answer = await openAuthorize(clientId, redirectUri);
  expect(answer.status).toBe(400);
  return (await answer.json()) as { error: string; error_description: string };
}

describe("a client whose client_id is its metadata document's URL", () => {
  it("is offered in the metadata, and completes the code flow with oauth4webapi as a public client", async () => {
    expect(rp.as.client_id_metadata_document_supported).toBe(true);
    const clientId = documentAt("/flow/client.json", { logo_uri: "https://acme.example/logo.png" });
    served.set("/flow/client.json", {
      ...(served.get("/flow/client.json") as Served),
      headers: { "cache-control": "max-age=3600" },
    });
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: "none" };
    const started = await rp.authorize(client);
    const { landing, who, details } = await rp.approve(started);
    // The consent page is told the name is the document's claim, and the host that vouches for it.
    expect(details.data).toMatchObject({
      client: {
        id: clientId,
        name: "Acme agent",
        client_id_metadata_document: true,
        host: new URL(origin).host,
      },
    });
    const params = oauth.validateAuthResponse(rp.as, client, landing, started.state);
    const response = await oauth.authorizationCodeGrantRequest(
      rp.as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      started.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(rp.as, client, response, {
      expectedNonce: started.nonce,
      requireIdToken: true,
    });
    // Its tokens name it by its URL: the access token's client_id, the ID token's audience.
    expect(decodeJwt(tokens.access_token)).toMatchObject({ client_id: clientId, sub: who.user.id });
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({ aud: [clientId], sub: who.user.id });
    const refreshed = await oauth.processRefreshTokenResponse(
      rp.as,
      client,
      await oauth.refreshTokenGrantRequest(
        rp.as,
        client,
        oauth.None(),
        tokens.refresh_token as string,
        insecure,
      ),
    );
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ client_id: clientId });
    // Fetched once: every later use read the stored copy, fresh for its max-age.
    expect(fetches.get("/flow/client.json")).toBe(1);

    // The user's grants name it by its URL, and revoking it by its URL ends its session.
    const grants = await who.client.oauth.listGrants();
    expect(grants.data).toEqual([
      expect.objectContaining({ client: expect.objectContaining({ id: clientId }) }),
    ]);
    expect((await who.client.oauth.revokeGrant({ clientId })).error).toBeNull();
    const refused = await oauth.refreshTokenGrantRequest(
      rp.as,
      client,
      oauth.None(),
      refreshed.refresh_token as string,
      insecure,
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("is listed by the admin API under its URL, can be read and deleted by it, not changed", async () => {
    const clientId = documentAt("/admin/client.json");
    expect((await openAuthorize(clientId)).status).toBe(302);
    const { data } = await rp.admin.oauth.listClients();
    expect(data.clients).toContainEqual(
      expect.objectContaining({
        client_id: clientId,
        client_id_metadata_document: true,
        client_type: "public",
      }),
    );
    // The admin paths take it URL-encoded (auth-js's admin.oauth methods put the id in the path as it is).
    const path = `${server.url}/admin/oauth/clients/${encodeURIComponent(clientId)}`;
    const headers = {
      authorization: `Bearer ${await roleKey("service_role")}`,
      "content-type": "application/json",
    };
    const read = await fetch(path, { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ client_id: clientId, redirect_uris: [REDIRECT] });
    const changed = await fetch(path, {
      method: "PUT",
      headers,
      body: JSON.stringify({ client_name: "Mine" }),
    });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toMatchObject({ error_code: "validation_failed" });
    expect((await fetch(path, { method: "DELETE", headers })).status).toBe(204);
    expect((await fetch(path, { headers })).status).toBe(404);
    // Forgotten: its next use fetches its document again, as a new client.
    expect((await openAuthorize(clientId)).status).toBe(302);
    expect(fetches.get("/admin/client.json")).toBe(2);
  });

  it("refuses a code whose redirect URI the document withdrew between the request and the exchange", async () => {
    const path = "/changing/client.json";
    const clientId = documentAt(path);
    served.set(path, { ...(served.get(path) as Served), headers: { "cache-control": "no-store" } });
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: "none" };
    const { code, started } = await rp.approvedCode(client);
    documentAt(path, { redirect_uris: ["http://127.0.0.1:8123/elsewhere"] });
    // The stored copy is used for the floor (1 s here), then the document is fetched again.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const exchange = await rp.tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: started.verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(exchange.status).toBe(400);
    expect(await exchange.json()).toEqual({
      error: "invalid_grant",
      error_description: "redirect_uri does not match the authorization request",
    });
  });

  it("is used by the MCP SDK's auth() through its clientMetadataUrl", async () => {
    const clientMetadataUrl = documentAt("/mcp/client.json", { client_name: "MCP agent" });
    const provider = new MetadataDocumentProvider(clientMetadataUrl);
    expect(await auth(provider, { serverUrl: server.issuer, resourceMetadataUrl: undefined })).toBe(
      "REDIRECT",
    );
    expect(provider.client?.client_id).toBe(clientMetadataUrl);
    const authorizationUrl = provider.authorizationUrl as URL;
    expect(authorizationUrl.searchParams.get("client_id")).toBe(clientMetadataUrl);
    const started = await fetch(authorizationUrl, { redirect: "manual" });
    expect(started.status).toBe(302);
    const authorizationId = new URL(started.headers.get("location") as string).searchParams.get(
      "authorization_id",
    ) as string;
    const who = await signedInUser(server.url);
    const details = await who.client.oauth.getAuthorizationDetails(authorizationId);
    expect(details.data).toMatchObject({ client: { id: clientMetadataUrl, name: "MCP agent" } });
    const approved = await who.client.oauth.approveAuthorization(authorizationId, {
      skipBrowserRedirect: true,
    });
    const landing = new URL((approved.data as { redirect_url: string }).redirect_url);
    const code = landing.searchParams.get("code") as string;
    expect(await auth(provider, { serverUrl: server.issuer, authorizationCode: code })).toBe("AUTHORIZED");
    expect(decodeJwt(provider.saved?.access_token as string)).toMatchObject({
      client_id: clientMetadataUrl,
      sub: who.user.id,
    });
  });
});

describe("refusals", () => {
  it("refuses a document whose client_id is not its URL, or whose rules a registration would fail", async () => {
    const other = serve("/mismatch/client.json", {
      client_id: `${origin}/elsewhere.json`,
      redirect_uris: [REDIRECT],
    });
    expect(await refusedAtAuthorize(other)).toEqual({
      error: "invalid_client",
      error_description: "client metadata document refused: its client_id must be the document's URL exactly",
    });
    const secret = documentAt("/secret/client.json", { client_secret: "s3cret" });
    expect((await refusedAtAuthorize(secret)).error_description).toContain("must not hold a client_secret");
    const method = documentAt("/basic/client.json", { token_endpoint_auth_method: "client_secret_basic" });
    expect((await refusedAtAuthorize(method)).error_description).toContain("only 'none'");
    const badUri = documentAt("/bad-uri/client.json", { redirect_uris: ["http://evil.example/cb"] });
    expect((await refusedAtAuthorize(badUri)).error_description).toContain("only allowed for localhost");
  });

  it("refuses a redirect URI the document does not list, before anything is redirected", async () => {
    const clientId = documentAt("/listed/client.json");
    const answer = await openAuthorize(clientId, "http://127.0.0.1:8123/not-listed");
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error_code: "validation_failed",
      msg: "invalid redirect_uri",
    });
  });

  it("refuses a document too large, too slow, not JSON, redirecting or missing", async () => {
    const huge = documentAt("/huge/client.json", {
      client_name: "n".repeat(1000),
      logo_uri: `https://a.example/${"l".repeat(2000)}`,
      client_uri: `https://a.example/${"u".repeat(2000)}`,
      redirect_uris: Array.from({ length: 10 }, (_, i) => `${REDIRECT}/${i}${"p".repeat(400)}`),
    });
    expect((await refusedAtAuthorize(huge)).error_description).toBe(
      "client metadata document could not be fetched: the answer is larger than 8192 bytes",
    );
    const slow = documentAt("/slow/client.json");
    served.set("/slow/client.json", { ...(served.get("/slow/client.json") as Served), delayMs: 6_000 });
    expect((await refusedAtAuthorize(slow)).error_description).toBe(
      "client metadata document could not be fetched: no answer within 5 seconds",
    );
    const html = `${origin}/html/client.json`;
    served.set("/html/client.json", { body: "<p>hi</p>", headers: { "content-type": "text/html" } });
    expect((await refusedAtAuthorize(html)).error_description).toBe(
      "client metadata document could not be fetched: the document is not served as application/json",
    );
    const broken = `${origin}/broken/client.json`;
    served.set("/broken/client.json", { body: "{not json" });
    expect((await refusedAtAuthorize(broken)).error_description).toBe(
      "client metadata document could not be fetched: the document is not valid JSON",
    );
    const moved = `${origin}/moved/client.json`;
    served.set("/moved/client.json", {
      body: "",
      status: 302,
      headers: { location: documentAt("/target.json") },
    });
    expect((await refusedAtAuthorize(moved)).error_description).toBe(
      "client metadata document could not be fetched: the document's URL answered a redirect (302)",
    );
    expect(fetches.get("/target.json")).toBeUndefined();
    expect((await refusedAtAuthorize(`${origin}/missing/client.json`)).error_description).toBe(
      "client metadata document could not be fetched: the document's URL answered 404",
    );
  }, 20_000);

  it("refuses private and metadata addresses, and URLs the draft forbids, without fetching", async () => {
    for (const url of ["https://10.0.0.1/client.json", "https://169.254.169.254/latest/meta-data/client"]) {
      const refused = await refusedAtAuthorize(url);
      expect(refused.error).toBe("invalid_client");
      expect(refused.error_description).toMatch(
        /^client metadata document could not be fetched: .*(private-use|link-local)/,
      );
    }
    expect((await refusedAtAuthorize(`${origin}/`)).error_description).toBe(
      "client metadata document refused: client_id URL must have a path",
    );
    expect((await refusedAtAuthorize(`http://example.com/client.json`)).error_description).toBe(
      "client metadata document refused: client_id URL must use https",
    );
    expect((await refusedAtAuthorize(`${origin}/a/../client.json`)).error).toBe("invalid_client");
  });

  it("answers a document failing when fetched again at the token endpoint as an OAuth invalid_client", async () => {
    const path = "/token-moved/client.json";
    const clientId = documentAt(path);
    served.set(path, { ...(served.get(path) as Served), headers: { "cache-control": "no-store" } });
    expect((await openAuthorize(clientId)).status).toBe(302);
    served.set(path, { body: "", status: 301, headers: { location: "https://example.com/" } });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const answer = await rp.tokenRequest({
      grant_type: "refresh_token",
      refresh_token: "x",
      client_id: clientId,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: "invalid_client",
      error_description:
        "client metadata document could not be fetched: the document's URL answered a redirect (301)",
    });
    // A URL never used at /oauth/authorize is no client there, and is not fetched.
    const unseen = await rp.tokenRequest({
      grant_type: "refresh_token",
      refresh_token: "x",
      client_id: documentAt("/unseen/client.json"),
    });
    expect(unseen.status).toBe(400);
    expect(await unseen.json()).toMatchObject({ error_code: "invalid_credentials" });
    expect(fetches.get("/unseen/client.json")).toBeUndefined();
  });
});

/** An MCP client that names itself by its metadata document's URL (SEP-991) instead of registering. */
class MetadataDocumentProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(readonly clientMetadataUrl: string) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "MCP agent", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
