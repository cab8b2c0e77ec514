import type { FetchedClientDocument } from "@authsvc/core/oauth-server";
import { describe, expect, it } from "vitest";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";
import { consentPage } from "./consent-page-html.js";

const URL_ID = "https://app.example/oauth/client.json";
const REDIRECT = "https://app.example/cb";
const authorizeQuery = (clientId: string) =>
  `/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: "c".repeat(43),
    code_challenge_method: "S256",
  })}`;

/** An app with the OAuth server on (fakes), client metadata documents on or off, documents served by a fake. */
function app(enabled: boolean, document: FetchedClientDocument) {
  const base = testApp().auth.settings;
  const clientMetadataDocuments = {
    enabled,
    allowedHosts: [],
    minCacheSeconds: 300,
    maxCacheSeconds: 3600,
    allowLoopbackForTests: false,
  };
  const t = testApp(
    {},
    {
      oauthServer: { ...base.oauthServer, clientMetadataDocuments },
      signup: { ...base.signup, mailerAutoconfirm: true },
    },
  );
  Object.assign(t.auth, { clientDocuments: { fetch: async () => document } });
  return t;
}
const served = (document: unknown): FetchedClientDocument => ({ ok: true, document, maxAgeSeconds: null });

describe("client ID metadata documents at the HTTP edge", () => {
  it("off: a URL is an unknown client, and the metadata does not offer them", async () => {
    const { app: off } = app(false, served({ client_id: URL_ID, redirect_uris: [REDIRECT] }));
    const answer = await off.request(authorizeQuery(URL_ID));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error_code: "oauth_client_not_found" });
    const metadata = (await (await off.request("/.well-known/oauth-authorization-server")).json()) as object;
    expect(metadata).not.toHaveProperty("client_id_metadata_document_supported");
  });

  it("on: the metadata says so; a refused document is an OAuth invalid_client at authorize, an unseen URL no client at the token endpoint", async () => {
    const { app: on } = app(
      true,
      served({ client_id: "https://other.example/c.json", redirect_uris: [REDIRECT] }),
    );
    const metadata = await (await on.request("/.well-known/oauth-authorization-server")).json();
    expect(metadata).toMatchObject({ client_id_metadata_document_supported: true });
    const authorize = await on.request(authorizeQuery(URL_ID));
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toEqual({
      error: "invalid_client",
      error_description: "client metadata document refused: its client_id must be the document's URL exactly",
    });
    const token = await on.request("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: "x",
        client_id: URL_ID,
      }).toString(),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error_code: "invalid_credentials" });
    const unreachable = app(true, { ok: false, problem: "the document's URL answered a redirect (302)" });
    const failed = await unreachable.app.request(authorizeQuery(URL_ID));
    expect(failed.status).toBe(400);
    expect(await failed.json()).toEqual({
      error: "invalid_client",
      error_description:
        "client metadata document could not be fetched: the document's URL answered a redirect (302)",
    });
  });

  it("shows the consent page the client's URL as its id, its self-asserted name and its host", async () => {
    const t = app(true, served({ client_id: URL_ID, client_name: "Acme agent", redirect_uris: [REDIRECT] }));
    const started = await t.app.request(authorizeQuery(URL_ID));
    expect(started.status).toBe(302);
    const authorizationId = new URL(started.headers.get("location") as string).searchParams.get(
      "authorization_id",
    );
    const signup = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
    const { access_token: token } = (await signup.json()) as { access_token: string };
    const details = await t.app.request(`/oauth/authorizations/${authorizationId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(details.status).toBe(200);
    expect(await details.json()).toMatchObject({
      client: { id: URL_ID, name: "Acme agent", client_id_metadata_document: true, host: "app.example" },
    });
  });

  it("has the built-in consent page name the document's host and say the name is self-asserted", () => {
    const page = (documentHost: string | null) =>
      consentPage({
        action: "decision",
        fields: {},
        clientName: "<Acme>",
        clientUri: "https://acme.example",
        userEmail: "ann@example.com",
        scopes: ["email"],
        resource: null,
        documentHost,
      });
    const shown = page("app.example");
    expect(shown).toContain(
      '<span id="client-name">&lt;Acme&gt;</span> (<strong id="client-host">app.example</strong>)',
    );
    expect(shown).toContain(
      "This application describes itself at <strong>app.example</strong>: its name is its own claim, not checked by this site.",
    );
    expect(shown).not.toContain("https://acme.example");
    expect(page(null)).not.toContain("client-host");
  });
});
