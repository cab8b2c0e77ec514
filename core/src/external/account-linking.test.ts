import { describe, expect, it } from "vitest";
import type { AuthSettings } from "../settings.js";
import { anIdentity, aUser, type FakePerson, fakeDeps, fakeProviders } from "../testing/index.js";
import { completeExternalSignIn } from "./complete-external-sign-in.js";
import { startExternalSignIn } from "./start-external-sign-in.js";

/** Unverified provider addresses against existing accounts: they must never open one. */
function setup(settings: Partial<AuthSettings> = {}) {
  const deps = fakeDeps(settings);
  const idp = fakeProviders("keycloak");
  const all = { ...deps, providers: idp.providers };
  async function signIn(person: FakePerson, linkingTargetId?: string) {
    const started = await startExternalSignIn(all, {
      provider: "keycloak",
      ...(linkingTargetId ? { linkingTargetId } : {}),
    });
    if (!started.ok) throw started.error;
    return completeExternalSignIn(all, {
      state: started.value.state,
      code: idp.authorize(person),
      browserBinding: started.value.browserBinding ?? undefined,
    });
  }
  return { deps: all, tables: deps.store.tables, signIn };
}

const CONFIRMED = new Date("2025-01-01T00:00:00Z");
const autoconfirm = { signup: { ...fakeDeps().settings.signup, mailerAutoconfirm: true } };
const userOf = (r: Awaited<ReturnType<typeof completeExternalSignIn>>) => {
  if (!r.ok || r.value.kind !== "session") throw new Error(`no session: ${JSON.stringify(r)}`);
  return r.value.tokens.user;
};

/** The victim: a confirmed password account at `victim@example.com`, with its email identity. */
function victimIn(tables: ReturnType<typeof setup>["tables"]) {
  const victim = aUser({ email: "victim@example.com", emailConfirmedAt: CONFIRMED });
  tables.users.set(victim.id, victim);
  const identity = anIdentity(victim, {
    identityData: { sub: victim.id, email: victim.email, email_verified: true },
  });
  tables.identities.set(identity.id, identity);
  return victim;
}

describe("account linking: an unverified address opens no account", () => {
  it("under mailer autoconfirm, signs an unverified address into a new account without it", async () => {
    const { signIn, tables } = setup(autoconfirm);
    const victim = victimIn(tables);
    const user = userOf(
      await signIn({ subject: "kc-mallory", email: "victim@example.com", verified: false }),
    );
    expect(user.id).not.toBe(victim.id);
    expect(user.email).toBeNull();
    expect([...tables.identities.values()].filter((i) => i.userId === victim.id)).toHaveLength(1);
  });

  it("never finds an account by an identity that carries the address unverified", async () => {
    const { signIn, tables } = setup();
    const mallory = aUser({ email: "mallory@example.com", emailConfirmedAt: CONFIRMED });
    tables.users.set(mallory.id, mallory);
    const linked = userOf(
      await signIn({ subject: "kc-fake", email: "victim@example.com", verified: false }, mallory.id),
    );
    expect(linked.id).toBe(mallory.id);
    const victim = userOf(
      await signIn({ subject: "kc-victim", email: "Victim@example.com", verified: true }),
    );
    expect(victim.id).not.toBe(mallory.id);
    expect(victim).toMatchObject({ email: "victim@example.com", emailConfirmedAt: expect.any(Date) });
  });

  it("links the verified person to their own account, not to one holding their address unverified", async () => {
    const { signIn, tables } = setup();
    const victim = victimIn(tables);
    const mallory = aUser({ email: "mallory@example.com", emailConfirmedAt: CONFIRMED });
    tables.users.set(mallory.id, mallory);
    userOf(await signIn({ subject: "kc-fake", email: "victim@example.com", verified: false }, mallory.id));
    const user = userOf(await signIn({ subject: "kc-victim", email: "victim@example.com", verified: true }));
    expect(user.id).toBe(victim.id);
  });

  it("under autoconfirm, an email-less account does not take a linked unverified address as confirmed", async () => {
    const { signIn, tables, deps } = setup(autoconfirm);
    const mallory = aUser({ email: null, phone: "15550001111", phoneConfirmedAt: CONFIRMED });
    tables.users.set(mallory.id, mallory);
    const linked = await signIn(
      { subject: "kc-fake", email: "victim@example.com", verified: false },
      mallory.id,
    );
    expect(linked).toMatchObject({ ok: false, error: { error: { code: "email_not_confirmed" } } });
    expect(tables.users.get(mallory.id)).toMatchObject({
      email: "victim@example.com",
      emailConfirmedAt: null,
    });
    expect(deps.mailer.sent).toMatchObject([{ kind: "confirmation", to: "victim@example.com" }]);
    // The address it holds unconfirmed finds nobody: the verified person gets an account of their own.
    const user = userOf(await signIn({ subject: "kc-victim", email: "victim@example.com", verified: true }));
    expect(user.id).not.toBe(mallory.id);
    expect(tables.users.get(mallory.id)?.phone).toBe("15550001111");
  });
});
