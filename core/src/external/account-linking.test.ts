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

describe("account linking: a new account never holds an address nobody proved", () => {
  it("under autoconfirm, a first sign-in with an unverified address does not take it, and is not found by it later", async () => {
    const { signIn, tables } = setup(autoconfirm);
    const mallory = userOf(
      await signIn({ subject: "kc-mallory", email: "victim@example.com", verified: false }),
    );
    expect(tables.users.get(mallory.id)?.email).toBeNull();
    // The identity still opens the account it made.
    const again = userOf(
      await signIn({ subject: "kc-mallory", email: "victim@example.com", verified: false }),
    );
    expect(again.id).toBe(mallory.id);
    // The person the provider vouches for gets an account of their own, with the address confirmed.
    const victim = userOf(
      await signIn({ subject: "kc-victim", email: "victim@example.com", verified: true }),
    );
    expect(victim.id).not.toBe(mallory.id);
    expect(victim).toMatchObject({ email: "victim@example.com", emailConfirmedAt: expect.any(Date) });
    expect([...tables.identities.values()].filter((i) => i.userId === mallory.id)).toHaveLength(1);
  });

  it("under autoconfirm, an unconfirmed account keeps no unproven address when its identity signs in", async () => {
    const { signIn, tables } = setup();
    const first = await signIn({ subject: "kc-mallory", email: "victim@example.com", verified: false });
    expect(first).toMatchObject({
      ok: false,
      error: { error: { code: "provider_email_needs_verification" } },
    });
    const [pending] = [...tables.users.values()];
    expect(pending).toMatchObject({ email: "victim@example.com", emailConfirmedAt: null });
    // The operator turns mailer autoconfirm on afterwards.
    const later = setup(autoconfirm);
    for (const [id, user] of tables.users) later.tables.users.set(id, user);
    for (const [id, identity] of tables.identities) later.tables.identities.set(id, identity);
    const mallory = userOf(
      await later.signIn({ subject: "kc-mallory", email: "victim@example.com", verified: false }),
    );
    expect(mallory.id).toBe(pending?.id);
    expect(later.tables.users.get(mallory.id)?.email).toBeNull();
    const victim = userOf(
      await later.signIn({ subject: "kc-victim", email: "victim@example.com", verified: true }),
    );
    expect(victim.id).not.toBe(mallory.id);
  });

  it("linking by another verified address confirms no address the person did not verify", async () => {
    const { signIn, tables } = setup();
    // Mallory claims the victim's address unverified: an unconfirmed account, a mail to the victim.
    await signIn({ subject: "kc-mallory", email: "victim@example.com", verified: false });
    const [account] = [...tables.users.values()];
    // Her identity's address changes to her own, verified; a second identity of hers verifies it too.
    await signIn({ subject: "kc-mallory", email: "mallory@example.com", verified: true });
    await signIn({ subject: "kc-mallory-2", email: "mallory@example.com", verified: true });
    expect(tables.users.get(account?.id ?? "")?.emailConfirmedAt ?? null).toBeNull();
    // The victim's verified sign-in is not an entry into an account Mallory's identities open.
    const victim = userOf(
      await signIn({ subject: "kc-victim", email: "victim@example.com", verified: true }),
    );
    const victimsIdentities = [...tables.identities.values()].filter((i) => i.userId === victim.id);
    expect(victimsIdentities.map((i) => i.providerId)).toEqual(["kc-victim"]);
  });

  it("an email-less account confirmed without an address takes a linked unverified address unconfirmed", async () => {
    const { signIn, tables } = setup(autoconfirm);
    // What a sign-in under autoconfirm makes of an address the provider did not verify.
    const mallory = aUser({ email: null, emailConfirmedAt: CONFIRMED });
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
    const victim = userOf(
      await signIn({ subject: "kc-victim", email: "victim@example.com", verified: true }),
    );
    const victimsIdentities = [...tables.identities.values()].filter((i) => i.userId === victim.id);
    expect(victimsIdentities.map((i) => i.providerId)).toEqual(["kc-victim"]);
  });

  it("never links into an SSO account: each identity provider is a linking domain of its own", async () => {
    const { signIn, tables } = setup();
    const sso = aUser({ email: "victim@example.com", emailConfirmedAt: CONFIRMED, isSsoUser: true });
    tables.users.set(sso.id, sso);
    const assertion = anIdentity(sso, {
      provider: "sso:0b3a1c6e-6d1f-4a57-9d0e-3f7c1f0f2b11",
      providerId: "saml-subject",
      identityData: { sub: "saml-subject", email: "victim@example.com", email_verified: true },
    });
    tables.identities.set(assertion.id, assertion);
    const user = userOf(await signIn({ subject: "kc-victim", email: "victim@example.com", verified: true }));
    expect(user.id).not.toBe(sso.id);
    expect([...tables.identities.values()].filter((i) => i.userId === sso.id)).toHaveLength(1);
  });
});

describe("account linking: a verified address several accounts hold", () => {
  it("refuses with 422 email_exists, never an unexpected failure, and links nothing", async () => {
    const { signIn, tables } = setup(autoconfirm);
    const ann = userOf(await signIn({ subject: "kc-ann", email: "ann@example.com", verified: true }));
    const bea = userOf(await signIn({ subject: "kc-bea", email: "bea@example.com", verified: true }));
    // Ann's identity now reports Bea's address, verified (the provider let her take it over).
    expect(userOf(await signIn({ subject: "kc-ann", email: "bea@example.com", verified: true })).id).toBe(
      ann.id,
    );
    const third = await signIn({ subject: "kc-new", email: "bea@example.com", verified: true });
    expect(third).toMatchObject({
      ok: false,
      error: {
        error: {
          code: "email_exists",
          message:
            "Multiple accounts with the same email address in the same linking domain detected: default",
        },
      },
    });
    expect([...tables.identities.values()].map((i) => i.providerId).sort()).toEqual(["kc-ann", "kc-bea"]);
    expect(tables.users.size).toBe(2);
    expect(bea.id).not.toBe(ann.id);
  });
});
