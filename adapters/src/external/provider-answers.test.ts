import type { ExternalProvider } from "@authsvc/core/external";
import { isStorableText } from "@authsvc/core/kernel";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeProvider, json, startFakeProvider } from "../testing/providers/fake-provider.js";
import { keycloakCase } from "../testing/providers/keycloak.js";
import { authorize, failure, REDIRECT_URI } from "../testing/providers/provider-suite.js";
import { externalProvider } from "./external-providers.js";

/** Every string and key of a JSON value. */
function texts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...texts(inner)]);
}

describe("provider answers at the boundary (Keycloak's fake, with answers set per test)", () => {
  let fake: FakeProvider;
  let provider: ExternalProvider;
  let answer: { token: Record<string, unknown>; userInfo: unknown };
  beforeEach(async () => {
    answer = { token: {}, userInfo: {} };
    fake = await startFakeProvider({
      ...keycloakCase.behaviour,
      tokenAnswer: async (token) => ({ access_token: token, token_type: "Bearer", ...answer.token }),
      resources: { "GET /realms/main/protocol/openid-connect/userinfo": () => json(200, answer.userInfo) },
    });
    provider = externalProvider("keycloak", {
      clientIds: [fake.clientId],
      secret: fake.secret,
      redirectUri: REDIRECT_URI,
      url: fake.url,
    }).provider;
  });
  afterEach(() => fake.close());

  const code = async () =>
    (await authorize(provider.authorizationUrl({ state: "s", scopes: [], extraParams: {} }))).code;

  it("user info with lone surrogates and NUL: storable text, and an address with them is left out", async () => {
    answer.userInfo = {
      sub: "kc-1",
      email: "ada\ud800@example.com",
      email_verified: true,
      name: "Ada\udc00 \u0000Lovelace",
      "team\ud83d": ["\ud800"],
    };
    const person = await provider.fetchUser(await provider.exchangeCode(await code()));
    expect(person.subject).toBe("kc-1");
    expect(person.emails).toEqual([]);
    expect(person.identityData).toMatchObject({ name: "Ada\ufffd \ufffdLovelace", email_verified: false });
    expect(texts(person.identityData).every(isStorableText)).toBe(true);
  });

  it("keeps a provider's __proto__ key as data, never as the prototype of what is stored", async () => {
    answer.userInfo = JSON.parse('{"sub":"kc-2","__proto__":{"polluted":true},"team":{"__proto__":"x"}}');
    const person = await provider.fetchUser(await provider.exchangeCode(await code()));
    const custom = person.identityData.custom_claims as Record<string, unknown>;
    expect(Object.getPrototypeOf(custom)).toBe(Object.prototype);
    expect((custom as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(custom))).toEqual(
      JSON.parse('{"__proto__":{"polluted":true},"team":{"__proto__":"x"}}'),
    );
  });

  it("user info whose subject is not usable text is a failed fetch, not a stored identity", async () => {
    for (const sub of [true, "", "kc-\ud800", { id: 1 }]) {
      answer.userInfo = { sub, email: "ada@example.com" };
      await failure(provider.fetchUser(await provider.exchangeCode(await code())), "externalUserFetchFailed");
    }
  });

  it("a token answer whose access_token is not storable text is a failed exchange; odd refresh tokens are none", async () => {
    for (const accessToken of [42, "tok\ud800en", ""]) {
      answer.token = { access_token: accessToken };
      await failure(provider.exchangeCode(await code()), "externalCodeExchangeFailed");
    }
    answer.token = { refresh_token: { value: "r" }, id_token: 7 };
    const tokens = await provider.exchangeCode(await code());
    expect(tokens).toMatchObject({ refreshToken: null, idToken: null });
    answer.token = { refresh_token: "r\ud800" };
    expect((await provider.exchangeCode(await code())).refreshToken).toBeNull();
  });
});
