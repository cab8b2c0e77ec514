import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserClient } from "./support/browser-client.js";
import { type KeycloakServer, startKeycloakServer } from "./support/keycloak-server.js";

/**
 * `AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS=keycloak=corp`: the Keycloak provider (a real OpenID
 * Provider whose `<name>` accounts claim `<name>@example.com`, verified) is a linking domain of its own,
 * so its people never land in the password accounts of the same address, nor they in its.
 */
let kc: KeycloakServer;

beforeAll(async () => {
  kc = await startKeycloakServer({
    AUTHSVC_MAILER_AUTOCONFIRM: "true",
    AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS: "keycloak=corp",
  });
}, 60_000);

afterAll(async () => {
  await kc?.stop();
});

const client = () => browserClient(kc.server.url).client;

describe("a provider in a linking domain of its own", () => {
  it("gets an account of its own beside the password account of the same verified address", async () => {
    const login = `ann-${Date.now()}`;
    const email = `${login}@example.com`;
    const owner = await client().signUp({ email, password: "secret-pw-1" });
    expect(owner.error).toBeNull();

    const corp = await kc.signIn(login);
    expect(corp?.id).not.toBe(owner.data.user?.id);
    expect(corp?.email).toBe(email);
    expect(corp?.identities?.map((i) => i.provider)).toEqual(["keycloak"]);
    expect((await kc.signIn(login))?.id).toBe(corp?.id);

    // The password account is untouched and still the one its address finds.
    const signedIn = await client().signInWithPassword({ email, password: "secret-pw-1" });
    expect(signedIn.data.user?.id).toBe(owner.data.user?.id);
    expect(signedIn.data.user?.identities?.map((i) => i.provider)).toEqual(["email"]);
  });
});
