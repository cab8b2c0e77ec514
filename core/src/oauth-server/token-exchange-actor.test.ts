import { describe, expect, it } from "vitest";
import { accessTokenClaims, type Session } from "../sessions/index.js";
import { aSession, aUser, fakeDeps } from "../testing/index.js";
import { type OAuthClient, TOKEN_EXCHANGE_GRANT } from "./client.js";
import { registerClient } from "./clients.js";
import { ACCESS_TOKEN_TYPE, exchangeToken } from "./token-exchange.js";

const DOWNSTREAM = "https://downstream.example/api";
const TOOL_URL = "https://tool.example/oauth/client.json";
const decode = (token: string) => JSON.parse(token.slice(4)) as Record<string, unknown>;

type Deps = ReturnType<typeof fakeDeps>;

async function confidential(deps: Deps, fields: Record<string, unknown> = {}): Promise<OAuthClient> {
  const registered = await registerClient(deps, {
    registrationType: "manual",
    redirectUris: ["https://agent.example/cb"],
    clientType: "confidential",
    ...fields,
  });
  if (!registered.ok) throw registered.error;
  return registered.value.client;
}

/** A client metadata document's client, as its first use stores it: a row under an internal id. */
async function documentClient(deps: Deps, url: string): Promise<OAuthClient> {
  const now = deps.clock.now();
  return deps.store.oauthClients.saveMetadataClient({
    id: deps.random.uuid(),
    secretHash: null,
    registrationType: "dynamic",
    clientType: "public",
    authMethod: "none",
    redirectUris: ["https://tool.example/cb"],
    grantTypes: ["authorization_code", "refresh_token"],
    name: "Tool",
    uri: null,
    logoUri: null,
    createdAt: now,
    updatedAt: now,
    metadataUrl: url,
    metadataExpiresAt: new Date(now.getTime() + 3600_000),
  });
}

/**
 * The access token of `session`: `client_id` is the client's public id (its URL for a document's
 * client), as the session the grant started names it; the stored session names the row only.
 */
async function tokenOf(deps: Deps, user: ReturnType<typeof aUser>, session: Session) {
  const claims = accessTokenClaims(user, session, {
    now: deps.clock.now(),
    expSeconds: 3600,
    adminRoles: ["service_role"],
  });
  return deps.signer.sign(claims);
}

async function setup() {
  const deps = fakeDeps();
  const user = aUser({ email: "ada@example.com" });
  deps.store.tables.users.set(user.id, user);
  const agent = await confidential(deps, {
    grantTypes: ["authorization_code", TOKEN_EXCHANGE_GRANT],
    tokenExchangeAudiences: [DOWNSTREAM],
  });
  const agentSession = aSession(user, { oauthClientId: agent.id, scopes: "openid email" });
  await deps.store.sessions.create(agentSession, "hash-agent");
  const subject = await tokenOf(deps, user, agentSession);
  return { deps, user, agent, subject };
}

/** A session of `client` for `user`, stored as the store keeps it (no URL), and its access token. */
async function actorOf(deps: Deps, user: ReturnType<typeof aUser>, client: OAuthClient) {
  const session = aSession(user, { oauthClientId: client.id, scopes: "openid" });
  await deps.store.sessions.create(session, `hash-${session.id}`);
  const named = client.metadataUrl ? { ...session, oauthClientUrl: client.metadataUrl } : session;
  return { session, token: await tokenOf(deps, user, named) };
}

const exchange = (deps: Deps, agent: OAuthClient, subject: string, actorToken: string) =>
  exchangeToken(deps, {
    client: agent,
    dpop: null,
    subjectToken: subject,
    subjectTokenType: ACCESS_TOKEN_TYPE,
    actorToken,
    actorTokenType: ACCESS_TOKEN_TYPE,
    resource: DOWNSTREAM,
  });

describe("exchangeToken: a client metadata document's client as the actor", () => {
  it("accepts its access token as actor_token, naming it in act by its URL", async () => {
    const { deps, user, agent, subject } = await setup();
    const tool = await documentClient(deps, TOOL_URL);
    const actor = await actorOf(deps, user, tool);
    expect(decode(actor.token).client_id).toBe(TOOL_URL);
    const result = await exchange(deps, agent, subject, actor.token);
    if (!result.ok) throw result.error;
    expect(decode(result.value.accessToken).act).toEqual({ sub: user.id, client_id: TOOL_URL });
  });

  it("refuses a token naming a client that is not its session's, a document's URL or an id", async () => {
    const { deps, user, agent, subject } = await setup();
    const tool = await documentClient(deps, TOOL_URL);
    const other = await documentClient(deps, "https://other.example/client.json");
    const { session } = await actorOf(deps, user, tool);
    for (const claimed of [other.metadataUrl as string, other.id, tool.id]) {
      const forged = await deps.signer.sign({
        ...accessTokenClaims(user, session, { now: deps.clock.now(), expSeconds: 3600, adminRoles: [] }),
        client_id: claimed,
      });
      expect(await exchange(deps, agent, subject, forged)).toMatchObject({
        ok: false,
        error: { failure: "exchangeActorNotClientToken" },
      });
    }
  });

  it("refuses the token of a document's client deleted since", async () => {
    const { deps, user, agent, subject } = await setup();
    const tool = await documentClient(deps, TOOL_URL);
    const actor = await actorOf(deps, user, tool);
    await deps.store.oauthClients.softDelete(tool.id, deps.clock.now());
    // The fake store keeps the session; the client row alone is gone.
    expect(await exchange(deps, agent, subject, actor.token)).toMatchObject({
      ok: false,
      error: { failure: "exchangeActorNotClientToken" },
    });
  });
});
