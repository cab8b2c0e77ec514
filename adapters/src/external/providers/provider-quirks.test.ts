import { externalProvider, PROVIDER_DEFINITIONS } from "@authsvc/adapters";
import type { ExternalUser } from "@authsvc/core/external";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeProvider } from "../../testing/providers/fake-provider.js";
import { googleCase } from "../../testing/providers/google.js";
import { signIn, startCase } from "../../testing/providers/provider-suite.js";

const settings = { clientIds: ["client-1"], secret: "s", redirectUri: "https://auth.example.com/callback" };

describe("without a base URL, providers use their public hosts", () => {
  it.each([
    ["github", "https://github.com/login/oauth/authorize"],
    ["gitlab", "https://gitlab.com/oauth/authorize"],
    ["google", "https://accounts.google.com/o/oauth2/v2/auth"],
    ["apple", "https://appleid.apple.com/auth/authorize"],
    ["azure", "https://login.microsoftonline.com/common/oauth2/v2.0/authorize"],
    ["linkedin_oidc", "https://www.linkedin.com/oauth/v2/authorization"],
    ["slack_oidc", "https://slack.com/openid/connect/authorize"],
    ["twitch", "https://id.twitch.tv/oauth2/authorize"],
  ] as const)("%s at %s", (name, endpoint) => {
    const url = externalProvider(name, { ...settings, url: undefined }).provider.authorizationUrl({
      state: "s",
      scopes: [],
      extraParams: {},
    });
    expect(url.split("?")[0]).toBe(endpoint);
  });

  it("except Keycloak, which has none", () => {
    expect(() => externalProvider("keycloak", { ...settings, url: undefined })).toThrow(
      /EXTERNAL_KEYCLOAK_URL/,
    );
  });
});

describe("Azure without a tenant (common)", () => {
  const issuer = PROVIDER_DEFINITIONS.azure(undefined).idToken?.issuer;
  const check = typeof issuer === "function" ? issuer : () => false;
  const tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";

  it("accepts any tenant's issuer whose id is the token's tid", () => {
    expect(check(`https://login.microsoftonline.com/${tenant}/v2.0`, { tid: tenant })).toBe(true);
  });

  it("refuses an issuer of another tenant than the token's tid, or of another host", () => {
    expect(check(`https://login.microsoftonline.com/${tenant}/v2.0`, { tid: "other" })).toBe(false);
    expect(check(`https://login.example.com/${tenant}/v2.0`, { tid: tenant })).toBe(false);
  });

  it("with a tenant URL, accepts that tenant's issuer only", () => {
    const single = PROVIDER_DEFINITIONS.azure(`https://login.microsoftonline.com/${tenant}`).idToken?.issuer;
    expect(typeof single).toBe("function");
    expect(
      typeof single === "function" && single(`https://login.microsoftonline.com/${tenant}/v2.0`, {}),
    ).toBe(true);
    expect(
      typeof single === "function" &&
        single("https://login.microsoftonline.com/other/v2.0", { tid: "other" }),
    ).toBe(false);
  });
});

describe("Google without an ID token", () => {
  let fake: FakeProvider | undefined;
  afterEach(() => fake?.close());

  it("reads the person from /userinfo/v2/me", async () => {
    const noIdToken = {
      ...googleCase,
      behaviour: {
        ...googleCase.behaviour,
        tokenAnswer: async (token: string) => ({ access_token: token, token_type: "Bearer" }),
      },
    };
    const started = await startCase(noIdToken);
    fake = started.fake;
    const { provider } = started.build();
    const user = await provider.fetchUser((await signIn(provider)).tokens);
    expect(user.identityData).toEqual({
      iss: `${fake.url}/userinfo/v2/me`,
      sub: "4242",
      name: "Ada Lovelace",
      picture: "https://cdn.example.com/ada.png",
      email: "ada@example.com",
      avatar_url: "https://cdn.example.com/ada.png",
      full_name: "Ada Lovelace",
      email_verified: true,
      phone_verified: false,
      provider_id: "4242",
    });
  });
});

describe("Apple's first-sign-in user field", () => {
  const { provider } = externalProvider("apple", { ...settings, url: undefined });
  const user: ExternalUser = { subject: "001", emails: [], identityData: { sub: "001" } };

  it("adds the name Apple posts to /callback", () => {
    const named = provider.withCallbackUser?.(
      user,
      JSON.stringify({ name: { firstName: "Ada", lastName: "Lovelace" } }),
    );
    expect(named?.identityData).toEqual({ sub: "001", name: "Ada Lovelace", full_name: "Ada Lovelace" });
  });

  it("leaves the person as is when the field is not JSON", () => {
    expect(provider.withCallbackUser?.(user, "{not json")).toEqual(user);
  });

  it("is Apple's only", () => {
    expect(
      externalProvider("google", { ...settings, url: undefined }).provider.withCallbackUser,
    ).toBeUndefined();
  });
});
