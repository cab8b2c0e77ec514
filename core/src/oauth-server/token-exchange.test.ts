import { describe, expect, it } from "vitest";
import { accessTokenClaims, type Session } from "../sessions/index.js";
import { aSession, aUser, fakeDeps } from "../testing/index.js";
import { type OAuthClient, TOKEN_EXCHANGE_GRANT } from "./client.js";
import { registerClient, updateClient } from "./clients.js";
import { ACCESS_TOKEN_TYPE, exchangeToken, type TokenExchange } from "./token-exchange.js";

const DOWNSTREAM = "https://downstream.example/api";
const OTHER = "https://other.example/api";
const decode = (token: string) => JSON.parse(token.slice(4)) as Record<string, unknown>;

/** A user signed in to an agent client (confidential, given token exchange for DOWNSTREAM) and its token. */
async function setup(options: { impersonation?: boolean; scopes?: string } = {}) {
  const deps = fakeDeps();
  const user = aUser({ email: "ada@example.com" });
  deps.store.tables.users.set(user.id, user);
  const agent = await client(deps, {
    grantTypes: ["authorization_code", TOKEN_EXCHANGE_GRANT],
    tokenExchangeAudiences: [DOWNSTREAM, "billing"],
    tokenExchangeImpersonation: options.impersonation ?? false,
  });
  const session = aSession(user, {
    oauthClientId: agent.id,
    scopes: options.scopes ?? "openid email profile",
  });
  await deps.store.sessions.create(session, "hash-agent");
  const subject = await tokenOf(deps, user, session);
  return { deps, user, agent, session, subject };
}

async function client(
  deps: ReturnType<typeof fakeDeps>,
  fields: Record<string, unknown>,
): Promise<OAuthClient> {
  const registered = await registerClient(deps, {
    registrationType: "manual",
    redirectUris: ["https://agent.example/cb"],
    clientType: "confidential",
    ...fields,
  });
  if (!registered.ok) throw registered.error;
  return registered.value.client;
}

async function tokenOf(
  deps: ReturnType<typeof fakeDeps>,
  user: ReturnType<typeof aUser>,
  session: Session,
  extra: Record<string, unknown> = {},
) {
  const claims = accessTokenClaims(user, session, {
    now: deps.clock.now(),
    expSeconds: 3600,
    adminRoles: ["service_role"],
  });
  return deps.signer.sign({ ...claims, ...extra } as typeof claims);
}

const request = (
  agent: OAuthClient,
  subject: string,
  fields: Partial<TokenExchange> = {},
): TokenExchange => ({
  client: agent,
  dpop: null,
  subjectToken: subject,
  subjectTokenType: ACCESS_TOKEN_TYPE,
  resource: DOWNSTREAM,
  ...fields,
});

describe("exchangeToken: delegation", () => {
  it("issues a token for the user, of the agent, for the audience, with act and the narrowed scope, audited", async () => {
    const { deps, user, agent, session, subject } = await setup();
    const result = await exchangeToken(deps, request(agent, subject, { scope: "email" }));
    if (!result.ok) throw result.error;
    expect(result.value).toMatchObject({
      issuedTokenType: ACCESS_TOKEN_TYPE,
      scope: "email",
      expiresIn: 3600,
    });
    expect(result.value.refreshToken).toBeUndefined();
    const claims = decode(result.value.accessToken);
    expect(claims).toMatchObject({
      sub: user.id,
      client_id: agent.id,
      aud: DOWNSTREAM,
      scope: "email",
      session_id: session.id,
      act: { sub: agent.id },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({
      action: "token_exchanged",
      actorId: user.id,
      traits: {
        client_id: agent.id,
        subject_client_id: agent.id,
        audience: [DOWNSTREAM],
        scope: "email",
        mode: "delegation",
        act: { sub: agent.id },
      },
    });
  });

  it("keeps the subject's scopes when none are asked, and names resource and audience together", async () => {
    const { deps, agent, subject } = await setup();
    const result = await exchangeToken(deps, request(agent, subject, { audience: "billing" }));
    if (!result.ok) throw result.error;
    expect(decode(result.value.accessToken)).toMatchObject({
      aud: [DOWNSTREAM, "billing"],
      scope: "openid email profile",
    });
  });

  it("never outlives the subject token", async () => {
    const { deps, agent, subject } = await setup();
    deps.clock.advance(3000_000);
    const result = await exchangeToken(deps, request(agent, subject));
    if (!result.ok) throw result.error;
    expect(result.value.expiresIn).toBe(600);
    expect(decode(result.value.accessToken).exp).toBe(decode(subject).exp);
  });

  it("nests act when the subject token was itself exchanged (RFC 8693 §4.1), and narrows further only", async () => {
    const { deps, agent, subject } = await setup();
    const first = await exchangeToken(deps, request(agent, subject, { scope: "email profile" }));
    if (!first.ok) throw first.error;
    const second = await exchangeToken(
      deps,
      request(agent, first.value.accessToken, { resource: undefined, audience: "billing" }),
    );
    if (!second.ok) throw second.error;
    expect(decode(second.value.accessToken)).toMatchObject({
      aud: "billing",
      act: { sub: agent.id, act: { sub: agent.id } },
      scope: "email profile",
    });
    expect(
      await exchangeToken(deps, request(agent, first.value.accessToken, { scope: "openid" })),
    ).toMatchObject({ ok: false, error: { code: "invalid_scope" } });
  });

  it("names the actor token's subject and client in act", async () => {
    const { deps, user, agent, subject } = await setup();
    const tool = await client(deps, {});
    const toolSession = aSession(user, { oauthClientId: tool.id, scopes: "openid" });
    await deps.store.sessions.create(toolSession, "hash-tool");
    const actorToken = await tokenOf(deps, user, toolSession);
    const result = await exchangeToken(
      deps,
      request(agent, subject, { actorToken, actorTokenType: ACCESS_TOKEN_TYPE }),
    );
    if (!result.ok) throw result.error;
    expect(decode(result.value.accessToken).act).toEqual({ sub: user.id, client_id: tool.id });
    // An actor token whose session ended acts for nobody.
    await deps.store.sessions.delete(toolSession.id);
    expect(
      await exchangeToken(deps, request(agent, subject, { actorToken, actorTokenType: ACCESS_TOKEN_TYPE })),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_request", failure: "exchangeActorNotClientToken" },
    });
  });
});

describe("exchangeToken: impersonation", () => {
  it("issues a token without act to a client the admin allowed, audited as impersonation", async () => {
    const { deps, user, agent, subject } = await setup({ impersonation: true });
    const result = await exchangeToken(deps, request(agent, subject, { impersonate: "true" }));
    if (!result.ok) throw result.error;
    const claims = decode(result.value.accessToken);
    expect(claims).toMatchObject({ sub: user.id, client_id: agent.id, aud: DOWNSTREAM });
    expect(claims.act).toBeUndefined();
    expect(deps.store.tables.audit.at(-1)).toMatchObject({
      action: "token_exchanged",
      traits: { mode: "impersonation" },
    });
  });

  it("refuses it to a client not allowed, and audits the refusal", async () => {
    const { deps, user, agent, subject } = await setup();
    expect(await exchangeToken(deps, request(agent, subject, { impersonate: "true" }))).toMatchObject({
      ok: false,
      error: { code: "unauthorized_client", failure: "exchangeImpersonationRefused" },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({
      action: "token_exchange_refused",
      actorId: user.id,
      traits: { client_id: agent.id, reason: "impersonation_not_allowed", audience: [DOWNSTREAM] },
    });
  });

  it("refuses to impersonate with a delegated token or with an actor token", async () => {
    const { deps, agent, subject } = await setup({ impersonation: true });
    const delegated = await exchangeToken(deps, request(agent, subject));
    if (!delegated.ok) throw delegated.error;
    expect(
      await exchangeToken(deps, request(agent, delegated.value.accessToken, { impersonate: "true" })),
    ).toMatchObject({ ok: false, error: { failure: "exchangeImpersonationOfDelegation" } });
    expect(
      await exchangeToken(
        deps,
        request(agent, subject, {
          impersonate: "true",
          actorToken: subject,
          actorTokenType: ACCESS_TOKEN_TYPE,
        }),
      ),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_request", failure: "exchangeImpersonationWithActor" },
    });
  });
});

describe("exchangeToken: refusals", () => {
  it("refuses malformed requests before reading any token", async () => {
    const { deps, agent, subject } = await setup();
    const cases: [Partial<TokenExchange>, string, string][] = [
      [{ subjectToken: "" }, "invalid_request", "exchangeSubjectTokenMissing"],
      [{ subjectTokenType: undefined }, "invalid_request", "exchangeSubjectTokenTypeMissing"],
      [
        { subjectTokenType: "urn:ietf:params:oauth:token-type:id_token" },
        "invalid_request",
        "exchangeSubjectTokenTypeUnsupported",
      ],
      [
        { subjectTokenType: "urn:ietf:params:oauth:token-type:refresh_token" },
        "invalid_request",
        "exchangeSubjectTokenTypeUnsupported",
      ],
      [{ actorToken: subject }, "invalid_request", "exchangeActorTokenTypeMissing"],
      [{ actorTokenType: ACCESS_TOKEN_TYPE }, "invalid_request", "exchangeActorTokenMissing"],
      [
        { actorToken: subject, actorTokenType: "urn:ietf:params:oauth:token-type:jwt" },
        "invalid_request",
        "exchangeActorTokenTypeUnsupported",
      ],
      [
        { requestedTokenType: "urn:ietf:params:oauth:token-type:refresh_token" },
        "invalid_request",
        "exchangeRequestedTokenTypeUnsupported",
      ],
      [{ impersonate: "yes" }, "invalid_request", "exchangeImpersonateInvalid"],
      [{ resource: undefined }, "invalid_request", "exchangeTargetMissing"],
      [{ resource: "not a uri" }, "invalid_target", "exchangeResourceInvalid"],
      [{ resource: `${DOWNSTREAM}#x` }, "invalid_target", "exchangeResourceInvalid"],
    ];
    for (const [fields, code, failure] of cases) {
      expect(await exchangeToken(deps, request(agent, subject, fields)), failure).toMatchObject({
        ok: false,
        error: { code, failure },
      });
    }
    expect(deps.store.tables.audit).toEqual([]);
  });

  it("refuses a public client", async () => {
    const { deps, subject } = await setup();
    const registered = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: ["https://app.example/cb"],
      authMethod: "none",
    });
    if (!registered.ok) throw registered.error;
    const publicClient = { ...registered.value.client, grantTypes: [TOKEN_EXCHANGE_GRANT] as const };
    expect(await exchangeToken(deps, request(publicClient, subject))).toMatchObject({
      ok: false,
      error: { code: "unauthorized_client", failure: "exchangeNeedsConfidentialClient" },
    });
  });

  it("refuses an audience the admin did not list for the client, audited", async () => {
    const { deps, agent, subject } = await setup();
    for (const fields of [
      { resource: OTHER },
      { audience: "payroll" },
      { audience: DOWNSTREAM.toUpperCase() },
    ]) {
      expect(await exchangeToken(deps, request(agent, subject, fields))).toMatchObject({
        ok: false,
        error: { code: "invalid_target", failure: "exchangeTargetRefused" },
      });
    }
    expect(deps.store.tables.audit.at(-1)).toMatchObject({
      action: "token_exchange_refused",
      traits: { reason: "audience_not_allowed" },
    });
  });

  it("refuses a scope wider than the subject token's, audited", async () => {
    const { deps, agent, subject } = await setup({ scopes: "openid email" });
    expect(await exchangeToken(deps, request(agent, subject, { scope: "email phone" }))).toMatchObject({
      ok: false,
      error: { code: "invalid_scope" },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({ traits: { reason: "scope_widened" } });
  });

  it("refuses an unverifiable, expired or API-key subject", async () => {
    const { deps, agent, subject } = await setup();
    for (const token of [
      "garbage",
      `${subject}x`,
      await deps.signer.sign({ role: "service_role" } as never),
    ]) {
      expect((await exchangeToken(deps, request(agent, token))).ok).toBe(false);
    }
    deps.clock.advance(3601_000);
    expect(await exchangeToken(deps, request(agent, subject))).toMatchObject({
      ok: false,
      error: { code: "invalid_request", failure: "exchangeSubjectTokenInvalid" },
    });
  });

  it("refuses an ID token and a first-party token as subject, audited", async () => {
    const { deps, user, agent, session } = await setup();
    const idToken = await tokenOf(deps, user, session, { token_use: "id" });
    expect(await exchangeToken(deps, request(agent, idToken))).toMatchObject({
      ok: false,
      error: { code: "invalid_request", failure: "exchangeSubjectIdToken" },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({ traits: { reason: "id_token_as_subject" } });
    const firstParty = aSession(user);
    await deps.store.sessions.create(firstParty, "hash-first");
    expect(await exchangeToken(deps, request(agent, await tokenOf(deps, user, firstParty)))).toMatchObject({
      ok: false,
      error: { code: "invalid_request", failure: "exchangeSubjectNotClientToken" },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({ traits: { reason: "first_party_subject" } });
  });

  it("refuses another client's token (a leaked one), audited with the client it was issued to", async () => {
    const { deps, user, agent } = await setup();
    const app = await client(deps, {});
    const appSession = aSession(user, { oauthClientId: app.id, scopes: "openid email" });
    await deps.store.sessions.create(appSession, "hash-app");
    expect(await exchangeToken(deps, request(agent, await tokenOf(deps, user, appSession)))).toMatchObject({
      ok: false,
      error: { code: "invalid_request", failure: "exchangeSubjectOfAnotherClient" },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({
      action: "token_exchange_refused",
      actorId: user.id,
      traits: { client_id: agent.id, subject_client_id: app.id, reason: "subject_of_another_client" },
    });
    // Claims naming the agent do not make another client's session the agent's.
    const relabelled = await tokenOf(deps, user, appSession, { client_id: agent.id });
    expect(await exchangeToken(deps, request(agent, relabelled))).toMatchObject({
      ok: false,
      error: { failure: "exchangeSubjectOfAnotherClient" },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({ traits: { subject_client_id: app.id } });
  });

  it("refuses a token whose session ended, was cut short, or whose user is banned or gone", async () => {
    const { deps, user, agent, session, subject } = await setup();
    const ended = { ok: false, error: { code: "invalid_request", failure: "exchangeSubjectSessionEnded" } };
    const past = aSession(user, {
      oauthClientId: agent.id,
      scopes: "openid",
      notAfter: new Date(deps.clock.now().getTime() - 1000),
    });
    await deps.store.sessions.create(past, "hash-past");
    expect(await exchangeToken(deps, request(agent, await tokenOf(deps, user, past)))).toMatchObject(ended);
    deps.store.tables.users.set(user.id, {
      ...user,
      bannedUntil: new Date(deps.clock.now().getTime() + 60_000),
    });
    expect(await exchangeToken(deps, request(agent, subject))).toMatchObject({
      ok: false,
      error: { code: "access_denied" },
    });
    deps.store.tables.users.set(user.id, { ...user, deletedAt: deps.clock.now() });
    expect(await exchangeToken(deps, request(agent, subject))).toMatchObject({
      ok: false,
      error: { failure: "exchangeSubjectUserGone" },
    });
    await deps.store.sessions.delete(session.id);
    expect(await exchangeToken(deps, request(agent, subject))).toMatchObject(ended);
  });

  it("refuses an actor token that is not a client's live access token", async () => {
    const { deps, user, agent, session, subject } = await setup();
    const idToken = await tokenOf(deps, user, session, { token_use: "id" });
    for (const actorToken of ["garbage", idToken]) {
      expect(
        await exchangeToken(deps, request(agent, subject, { actorToken, actorTokenType: ACCESS_TOKEN_TYPE })),
      ).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    }
  });
});

describe("token exchange on clients", () => {
  it("is given by an admin only, to a confidential client, never by default", async () => {
    const deps = fakeDeps();
    const base = { redirectUris: ["https://agent.example/cb"], clientType: "confidential" };
    const dynamic = await registerClient(deps, {
      ...base,
      registrationType: "dynamic",
      grantTypes: [TOKEN_EXCHANGE_GRANT],
    });
    expect(dynamic).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    expect(
      await registerClient(deps, { ...base, registrationType: "dynamic", tokenExchangeImpersonation: true }),
    ).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    expect(
      await registerClient(deps, {
        registrationType: "manual",
        redirectUris: base.redirectUris,
        authMethod: "none",
        grantTypes: [TOKEN_EXCHANGE_GRANT],
      }),
    ).toMatchObject({
      ok: false,
      error: { message: `grant_type '${TOKEN_EXCHANGE_GRANT}' needs a confidential client` },
    });
    const plain = await client(deps, {});
    expect(plain.grantTypes).toEqual(["authorization_code", "refresh_token"]);
    expect(plain).toMatchObject({ tokenExchangeAudiences: [], tokenExchangeImpersonation: false });
    const updated = await updateClient(deps, {
      id: plain.id,
      fields: {
        grantTypes: [TOKEN_EXCHANGE_GRANT],
        tokenExchangeAudiences: [DOWNSTREAM, DOWNSTREAM],
        tokenExchangeImpersonation: true,
      },
    });
    expect(updated).toMatchObject({
      ok: true,
      value: {
        grantTypes: [TOKEN_EXCHANGE_GRANT],
        tokenExchangeAudiences: [DOWNSTREAM],
        tokenExchangeImpersonation: true,
      },
    });
    for (const audiences of [
      ["with space"],
      [""],
      [`${DOWNSTREAM}#f`],
      Array.from({ length: 21 }, (_, i) => `a${i}`),
    ]) {
      expect(
        await updateClient(deps, { id: plain.id, fields: { tokenExchangeAudiences: audiences } }),
      ).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    }
  });
});

describe("exchangeToken: DPoP (RFC 9449 §5)", () => {
  it("binds the new token to the key the request proved, answered as bound", async () => {
    const { deps, agent, subject } = await setup();
    const result = await exchangeToken(deps, request(agent, subject, { dpop: { jkt: "request-key" } }));
    if (!result.ok) throw result.error;
    expect(result.value.boundTo).toBe("request-key");
    expect(decode(result.value.accessToken)).toMatchObject({ cnf: { jkt: "request-key" } });
  });

  it("never carries the subject session's key over: without a proof the token is a bearer token", async () => {
    const { deps, user, agent, session } = await setup();
    const bound = { ...session, dpopJkt: "session-key" };
    const subject = await tokenOf(deps, user, bound);
    expect(decode(subject)).toMatchObject({ cnf: { jkt: "session-key" } });
    const bearer = await exchangeToken(deps, request(agent, subject));
    if (!bearer.ok) throw bearer.error;
    expect(bearer.value.boundTo).toBeUndefined();
    expect(decode(bearer.value.accessToken)).not.toHaveProperty("cnf");
    const other = await exchangeToken(deps, request(agent, subject, { dpop: { jkt: "request-key" } }));
    if (!other.ok) throw other.error;
    expect(decode(other.value.accessToken)).toMatchObject({ cnf: { jkt: "request-key" } });
  });
});
