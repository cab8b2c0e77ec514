import { describe, expect, it } from "vitest";
import type { AuthSettings } from "../settings.js";
import { anIdentity, aUser, type FakePerson, fakeDeps, fakeProviders } from "../testing/index.js";
import { completeExternalSignIn } from "./complete-external-sign-in.js";
import type { ExternalProviders } from "./ports/external-provider.js";
import { linkingDomainOf } from "./settings.js";
import { startExternalSignIn } from "./start-external-sign-in.js";

/** Three providers (keycloak, github, gitlab) whose people sign in over the same fake deps. */
function setup(settings: Partial<AuthSettings>) {
  const deps = fakeDeps(settings);
  const idps = Object.fromEntries(
    ["keycloak", "github", "gitlab"].map((name) => [name, fakeProviders(name)]),
  );
  const providers: ExternalProviders = {
    provider: async (name) => (idps[name] ? idps[name].providers.provider(name) : null),
    idTokenVerifier: async (name) => (idps[name] ? idps[name].providers.idTokenVerifier(name) : null),
  };
  const all = { ...deps, providers };
  async function signIn(provider: string, person: FakePerson) {
    const started = await startExternalSignIn(all, { provider });
    if (!started.ok) throw started.error;
    const done = await completeExternalSignIn(all, {
      state: started.value.state,
      code: idps[provider]?.authorize(person) ?? "",
      browserBinding: started.value.browserBinding ?? undefined,
    });
    if (!done.ok || done.value.kind !== "session") throw new Error(`no session: ${JSON.stringify(done)}`);
    return done.value.tokens.user;
  }
  return { tables: deps.store.tables, signIn };
}

const domains = (providerLinkingDomains: Record<string, string>) => ({ providerLinkingDomains });
const ann = (subject: string): FakePerson => ({ subject, email: "ann@example.com", verified: true });

describe("account-linking domains (EXPERIMENTAL_PROVIDER_LINKING_DOMAINS)", () => {
  it("names a provider's domain: SSO providers their own, mapped ones theirs, others default", () => {
    const map = { github: "social", gitlab: "social", "sso:x": "social" };
    expect(linkingDomainOf("github", map)).toBe("social");
    expect(linkingDomainOf("keycloak", map)).toBe("default");
    expect(linkingDomainOf("sso:x", map)).toBe("sso:x");
    expect(linkingDomainOf("constructor", map)).toBe("default");
  });

  it("links providers of one domain to each other, never to an account of default", async () => {
    const { signIn, tables } = setup(domains({ github: "social", gitlab: "social" }));
    const owner = aUser({ email: "ann@example.com", emailConfirmedAt: new Date("2025-01-01T00:00:00Z") });
    tables.users.set(owner.id, owner);
    const email = anIdentity(owner, {
      identityData: { sub: owner.id, email: owner.email, email_verified: true },
    });
    tables.identities.set(email.id, email);

    const social = await signIn("github", ann("gh-ann"));
    expect(social.id).not.toBe(owner.id);
    // Outside default: the reference's is_sso_user, which may share the address.
    expect(social).toMatchObject({ isSsoUser: true, email: "ann@example.com" });
    expect((await signIn("gitlab", ann("gl-ann"))).id).toBe(social.id);
    // A provider of default links to the default account, not to the social one.
    expect((await signIn("keycloak", ann("kc-ann"))).id).toBe(owner.id);
    expect(
      [...tables.identities.values()]
        .filter((i) => i.userId === social.id)
        .map((i) => i.provider)
        .sort(),
    ).toEqual(["github", "gitlab"]);
  });

  it("keeps a provider named alone in a domain of its own: its people never link across", async () => {
    const { signIn } = setup(domains({ github: "github" }));
    const viaKeycloak = await signIn("keycloak", ann("kc-ann"));
    const viaGithub = await signIn("github", ann("gh-ann"));
    const viaGitlab = await signIn("gitlab", ann("gl-ann"));
    expect(viaGithub.id).not.toBe(viaKeycloak.id);
    expect(viaGitlab.id).toBe(viaKeycloak.id);
    expect(viaKeycloak.isSsoUser).not.toBe(true);
  });

  it("without the setting every provider links by verified address, as before", async () => {
    const { signIn } = setup(domains({}));
    const first = await signIn("github", ann("gh-ann"));
    expect((await signIn("gitlab", ann("gl-ann"))).id).toBe(first.id);
    expect(first.isSsoUser).not.toBe(true);
  });
});
