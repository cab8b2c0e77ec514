import { describe, expect, it } from "vitest";
import type { Factor } from "../accounts/index.js";
import { anIdentity, aSession, aUser, fakeDeps, fakeProviders } from "../testing/index.js";
import { signInWithIdToken } from "./sign-in-with-id-token.js";
import { startExternalSignIn } from "./start-external-sign-in.js";
import { unlinkIdentity } from "./unlink-identity.js";

const AT = new Date("2025-01-01T00:00:00Z");
const AAL2_NEEDED = {
  ok: false,
  error: expect.objectContaining({
    code: "insufficient_aal",
    message: "AAL2 session is required to link or unlink identities when MFA is enabled.",
  }),
};

/** Ann (email and keycloak identities) with a verified TOTP factor, an aal1 and an aal2 session. */
function annWithMfa() {
  const base = fakeDeps({ manualLinkingEnabled: true });
  const idp = fakeProviders("keycloak");
  const deps = { ...base, providers: idp.providers };
  const { tables } = base.store;
  const ann = aUser({ email: "ann@example.com", emailConfirmedAt: AT });
  tables.users.set(ann.id, ann);
  const email = anIdentity(ann, { identityData: { sub: ann.id, email: ann.email, email_verified: true } });
  const keycloak = anIdentity(ann, { provider: "keycloak", providerId: "kc-ann" });
  for (const i of [email, keycloak]) tables.identities.set(i.id, i);
  const factor: Factor = {
    id: "f0000000-0000-4000-8000-000000000001",
    userId: ann.id,
    friendlyName: "app",
    factorType: "totp",
    status: "verified",
    secret: "sealed",
    phone: null,
    createdAt: AT,
    updatedAt: AT,
    lastChallengedAt: null,
  };
  tables.factors.set(factor.id, factor);
  const aal1 = aSession(ann);
  const aal2 = aSession(ann, { aal: "aal2" });
  for (const s of [aal1, aal2]) tables.sessions.set(s.id, s);
  return { deps, idp, tables, ann, keycloak, aal1: aal1.id, aal2: aal2.id };
}

describe("manual linking of a user with a verified factor", () => {
  it("refuses to start linking from an aal1 session or without one; an aal2 session starts it", async () => {
    const { deps, ann, aal1, aal2 } = annWithMfa();
    const start = (linkingSessionId: string | null) =>
      startExternalSignIn(deps, { provider: "keycloak", linkingTargetId: ann.id, linkingSessionId });
    expect(await start(aal1)).toEqual(AAL2_NEEDED);
    expect(await start(null)).toEqual(AAL2_NEEDED);
    expect((await start(aal2)).ok).toBe(true);
  });

  it("refuses to link an ID token from an aal1 session, linking nothing", async () => {
    const { deps, idp, tables, ann, aal1, aal2 } = annWithMfa();
    const link = (linkSessionId: string) =>
      signInWithIdToken(deps, {
        provider: "keycloak",
        idToken: idp.idToken({ subject: "kc-mallory", email: "mallory@example.com", verified: true }),
        linkTargetId: ann.id,
        linkSessionId,
      });
    expect(await link(aal1)).toEqual(AAL2_NEEDED);
    expect([...tables.identities.values()].some((i) => i.providerId === "kc-mallory")).toBe(false);
    expect((await link(aal2)).ok).toBe(true);
  });

  it("refuses to unlink from an aal1 session, keeping the identity", async () => {
    const { deps, tables, ann, keycloak, aal1, aal2 } = annWithMfa();
    const unlink = (sessionId: string) =>
      unlinkIdentity(deps, { userId: ann.id, identityId: keycloak.id, sessionId });
    expect(await unlink(aal1)).toEqual(AAL2_NEEDED);
    expect(tables.identities.has(keycloak.id)).toBe(true);
    expect(await unlink(aal2)).toEqual({ ok: true, value: {} });
    expect(tables.identities.has(keycloak.id)).toBe(false);
  });
});
