import { describe, expect, it } from "vitest";
import { fakeDeps } from "../testing/index.js";
import { REQUEST_URI_PREFIX, startAuthorization } from "./authorize.js";
import { registerClient, updateClient } from "./clients.js";
import { pushAuthorizationRequest } from "./pushed-requests.js";

const REDIRECT = "https://app.example/cb";
const PARAMS = {
  redirect_uri: REDIRECT,
  response_type: "code",
  scope: "openid email",
  state: "pushed-state",
  code_challenge: "c".repeat(43),
  code_challenge_method: "S256",
};

async function setup(settings: { requirePushedAuthorizationRequests?: boolean } = {}) {
  const base = fakeDeps();
  const deps = {
    ...base,
    settings: {
      ...base.settings,
      oauthServer: { ...base.settings.oauthServer, ...settings },
    },
  };
  const make = async () => {
    const made = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: [REDIRECT],
      authMethod: "none",
    });
    if (!made.ok) throw made.error;
    return made.value.client;
  };
  const client = await make();
  const other = await make();
  return { deps, client, other };
}

const stateOf = (location: string) => new URL(location).searchParams;

describe("pushed authorization requests (RFC 9126)", () => {
  it("answers a request_uri that /oauth/authorize takes once, with the pushed parameters", async () => {
    const { deps, client } = await setup();
    const pushed = await pushAuthorizationRequest(deps, { client, parameters: PARAMS });
    if (!pushed.ok) throw pushed.error;
    expect(pushed.value.requestUri.startsWith(REQUEST_URI_PREFIX)).toBe(true);
    expect(pushed.value.expiresIn).toBe(60);
    const first = await startAuthorization(deps, {
      clientId: client.id,
      requestUri: pushed.value.requestUri,
      state: "from-the-query-ignored",
      redirectUri: "https://evil.example/cb",
    });
    if (!first.ok) throw first.error;
    const id = stateOf(first.value.location).get("authorization_id") ?? "";
    // The pushed parameters, not the query's.
    expect(await deps.store.oauthAuthorizations.lockByAuthorizationId(id)).toMatchObject({
      clientId: client.id,
      redirectUri: REDIRECT,
      state: "pushed-state",
      scope: "openid email",
    });
    const again = await startAuthorization(deps, {
      clientId: client.id,
      requestUri: pushed.value.requestUri,
    });
    expect(again).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });

  it("refuses a request_uri of another client, and an expired one", async () => {
    const { deps, client, other } = await setup();
    const pushed = await pushAuthorizationRequest(deps, { client, parameters: PARAMS });
    if (!pushed.ok) throw pushed.error;
    const stolen = await startAuthorization(deps, {
      clientId: other.id,
      requestUri: pushed.value.requestUri,
    });
    expect(stolen).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    deps.clock.advance(61_000);
    const late = await startAuthorization(deps, { clientId: client.id, requestUri: pushed.value.requestUri });
    expect(late).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });

  it("refuses a request_uri it never handed out", async () => {
    const { deps, client } = await setup();
    for (const requestUri of [`${REQUEST_URI_PREFIX}guess`, "https://attacker.example/request", ""]) {
      expect(await startAuthorization(deps, { clientId: client.id, requestUri })).toMatchObject({
        ok: false,
        error: { code: "invalid_request" },
      });
    }
  });

  it.each([
    [{ ...PARAMS, redirect_uri: "https://evil.example/cb" }, "redirect_uri is missing or not registered"],
    [{ ...PARAMS, redirect_uri: undefined }, "redirect_uri is missing or not registered"],
    [{ ...PARAMS, code_challenge_method: "plain" }, "code_challenge_method must be 'S256'"],
    [{ ...PARAMS, code_challenge: undefined }, "PKCE is required: code_challenge and code_challenge_method"],
    [{ ...PARAMS, response_type: "token" }, "response_type must be 'code'"],
    [{ ...PARAMS, request_uri: `${REQUEST_URI_PREFIX}x` }, "request_uri must not be pushed"],
    [{ ...PARAMS, request: "eyJ" }, "request objects (request) are not supported"],
    [
      { ...PARAMS, client_id: "00000000-0000-4000-8000-000000000000" },
      "client_id is not the authenticated client",
    ],
  ])("refuses %j as invalid_request", async (parameters, message) => {
    const { deps, client } = await setup();
    const defined = Object.fromEntries(
      Object.entries(parameters).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    expect(await pushAuthorizationRequest(deps, { client, parameters: defined })).toMatchObject({
      ok: false,
      error: { code: "invalid_request", message },
    });
  });

  it("refuses an unknown scope as invalid_scope (RFC 6749 §4.1.2.1)", async () => {
    const { deps, client } = await setup();
    const parameters = { ...PARAMS, scope: "admin" } as Record<string, string>;
    expect(await pushAuthorizationRequest(deps, { client, parameters })).toMatchObject({
      ok: false,
      error: { code: "invalid_scope", message: "unsupported scope: admin" },
    });
  });

  it("refuses a request without request_uri when PAR is required globally or for the client", async () => {
    const plain = {
      redirectUri: REDIRECT,
      codeChallenge: "c".repeat(43),
      codeChallengeMethod: "S256",
    };
    const global = await setup({ requirePushedAuthorizationRequests: true });
    const refused = await startAuthorization(global.deps, { ...plain, clientId: global.client.id });
    // An admin's client: the error goes back to its redirect URI.
    expect(refused.ok && stateOf(refused.value.location).get("error")).toBe("invalid_request");
    expect(refused.ok && stateOf(refused.value.location).get("error_description")).toMatch(/pushed/);
    const pushed = await pushAuthorizationRequest(global.deps, { client: global.client, parameters: PARAMS });
    if (!pushed.ok) throw pushed.error;
    const viaPar = await startAuthorization(global.deps, {
      clientId: global.client.id,
      requestUri: pushed.value.requestUri,
    });
    expect(viaPar.ok && stateOf(viaPar.value.location).get("authorization_id")).toBeTruthy();

    const perClient = await setup();
    await updateClient(perClient.deps, {
      id: perClient.client.id,
      fields: { requirePushedAuthorizationRequests: true },
    });
    const own = await startAuthorization(perClient.deps, { ...plain, clientId: perClient.client.id });
    expect(own.ok && stateOf(own.value.location).get("error")).toBe("invalid_request");
    const others = await startAuthorization(perClient.deps, { ...plain, clientId: perClient.other.id });
    expect(others.ok && stateOf(others.value.location).get("authorization_id")).toBeTruthy();
  });
});
