import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { ok } from "../kernel/index.js";
import { fakeDeps, fakeHooks } from "../testing/index.js";
import type { Session } from "./session.js";
import { signAccessToken } from "./steps/issue-session.js";

/**
 * An OAuth client's access token after the custom access token hook: the hook may add claims, but
 * not widen what the user granted the client. A data API (PostgREST) honours `role`, a resource
 * server checks `aud`, and `client_id`, `session_id` and `scope` say whose token it is and for what.
 */
const USER_ID = "11111111-1111-4111-8111-111111111111";
const CLIENT_ID = "22222222-2222-4222-8222-222222222222";
const SESSION_ID = "33333333-3333-4333-8333-333333333333";
const RESOURCE = "https://files.example/api";

type Claims = Record<string, unknown>;

async function clientToken(rewrite: (claims: Claims) => Claims, session: Partial<Session> = {}) {
  const hooks = fakeHooks({
    custom_access_token: (input) => ok({ claims: rewrite({ ...(input as { claims: Claims }).claims }) }),
  });
  const deps = { ...fakeDeps(), hooks: hooks.dispatcher };
  const now = deps.clock.now();
  // An admin made this account a service_role one; the client was granted `email` only.
  const user = blankUser({ id: USER_ID, aud: "authenticated", role: "service_role", createdAt: now });
  const clientSession: Session = {
    id: SESSION_ID,
    userId: USER_ID,
    aal: "aal1",
    amr: [{ method: "oauth", timestamp: Math.floor(now.getTime() / 1000) }],
    createdAt: now,
    updatedAt: now,
    refreshedAt: null,
    notAfter: null,
    oauthClientId: CLIENT_ID,
    scopes: "email",
    resource: RESOURCE,
    ...session,
  };
  const { accessToken } = await signAccessToken(deps, user, clientSession, now, "oauth");
  return (await deps.signer.verify(accessToken)) as Claims;
}

const BOUND = {
  role: "authenticated",
  aud: ["authenticated", RESOURCE],
  client_id: CLIENT_ID,
  session_id: SESSION_ID,
  scope: "email",
};

describe("an OAuth client's access token after the custom access token hook", () => {
  it.each<[string, (claims: Claims) => Claims]>([
    ["puts the user's admin role back", (c) => ({ ...c, role: "service_role" })],
    ["names another admin role", (c) => ({ ...c, role: "supabase_admin" })],
    ["drops the resource from aud", (c) => ({ ...c, aud: "authenticated" })],
    ["names another audience", (c) => ({ ...c, aud: ["authenticated", "https://bank.example"] })],
    ["drops client_id", ({ client_id: _, ...c }) => c],
    ["names another client", (c) => ({ ...c, client_id: "someone-else" })],
    ["names another session", (c) => ({ ...c, session_id: "44444444-4444-4444-8444-444444444444" })],
    ["widens the scope", (c) => ({ ...c, scope: "email admin" })],
    ["drops the scope", ({ scope: _, ...c }) => c],
  ])("keeps what the user granted when the hook %s", async (_, rewrite) => {
    expect(await clientToken(rewrite)).toMatchObject(BOUND);
  });

  it("keeps the claims the hook adds", async () => {
    expect(await clientToken((c) => ({ ...c, tenant: "acme" }))).toMatchObject({ ...BOUND, tenant: "acme" });
  });

  it("keeps aud a string for a client session that named no resource", async () => {
    const claims = await clientToken((c) => ({ ...c, aud: ["authenticated", "https://bank.example"] }), {
      resource: undefined,
    });
    expect(claims.aud).toBe("authenticated");
  });

  it("leaves a first-party session's token to the hook, role and audience included", async () => {
    const claims = await clientToken((c) => ({ ...c, role: "supabase_admin", aud: "other" }), {
      oauthClientId: undefined,
      scopes: undefined,
      resource: undefined,
    });
    expect(claims).toMatchObject({ role: "supabase_admin", aud: "other" });
    expect(claims.client_id).toBeUndefined();
  });
});
