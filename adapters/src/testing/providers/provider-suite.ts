import { createHash } from "node:crypto";
import type { FailureName } from "@authsvc/core";
import type { ExternalEmail, ExternalProvider } from "@authsvc/core/external";
import { AuthError } from "@authsvc/core/kernel";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BuiltProvider, externalProvider, type ProviderName } from "../../index.js";
import { type FakeBehaviour, type FakeProvider, startFakeProvider } from "./fake-provider.js";

export const REDIRECT_URI = "https://auth.example.com/callback";

/** One provider's fake and what the adapter must make of its answers. */
export interface ProviderCase {
  readonly name: ProviderName;
  readonly behaviour: FakeBehaviour;
  /** The scopes always asked for, in order. */
  readonly defaultScopes: readonly string[];
  /** Fixed authorization parameters besides the protocol ones (Apple's `response_mode`). */
  readonly authorizationParams?: Readonly<Record<string, string>>;
  /** The person comes from the ID token of the token answer, with no further call. */
  readonly signsInWithIdToken?: boolean;
  /** The provider's words for a refused code, as they must appear in the error's cause. */
  readonly badCodeWords: string;
  /** What `fetchUser` answers for the fake's default person (Ada). */
  expected(fake: FakeProvider): {
    subject: string;
    emails: ExternalEmail[];
    identityData: Record<string, unknown>;
  };
}

/** Starts a case's fake and builds the adapter pointed at it. */
export async function startCase(c: ProviderCase) {
  const fake = await startFakeProvider(c.behaviour);
  const build = (options: { secret?: string; url?: string; timeoutMs?: number } = {}): BuiltProvider =>
    externalProvider(c.name, {
      clientIds: [fake.clientId],
      secret: options.secret ?? fake.secret,
      redirectUri: REDIRECT_URI,
      url: options.url ?? fake.url,
      timeoutMs: options.timeoutMs ?? 3000,
      refetchCooldownMs: 0,
    });
  return { fake, build };
}

/** Follows the authorization URL as a browser would, through the fake's consent, to the code and state. */
export async function authorize(url: string): Promise<{ code: string; state: string }> {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  if (response.status === 302 && location) {
    const back = new URL(location);
    return { code: back.searchParams.get("code") ?? "", state: back.searchParams.get("state") ?? "" };
  }
  const html = await response.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  expect(response.status, html).toBe(200);
  return { code: field("code"), state: field("state") };
}

/** The PKCE verifier every sign-in of the suite uses toward providers that take one. */
export const CODE_VERIFIER = "suite-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";

export async function signIn(provider: ExternalProvider, scopes: string[] = []) {
  const { code } = await authorize(
    provider.authorizationUrl({ state: "state-1", scopes, extraParams: {}, codeVerifier: CODE_VERIFIER }),
  );
  return { code, tokens: await provider.exchangeCode(code, CODE_VERIFIER) };
}

/** Awaits a promise that must reject with the named failure, and returns the error. */
export async function failure(promise: Promise<unknown>, name: FailureName): Promise<AuthError> {
  const error: unknown = await promise.then(
    () => new Error(`expected ${name}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  expect((error as AuthError).failure).toBe(name);
  return error as AuthError;
}

/** The contract every provider adapter keeps against its provider's fake. */
export function describeExternalProvider(c: ProviderCase): void {
  describe(`${c.name} against its fake`, () => {
    let fake: FakeProvider;
    let build: Awaited<ReturnType<typeof startCase>>["build"];
    beforeEach(async () => {
      ({ fake, build } = await startCase(c));
    });
    afterEach(() => fake.close());

    it("sends the browser to the authorization endpoint with client, redirect, scopes, state and extras", async () => {
      const { provider } = build();
      const url = new URL(
        provider.authorizationUrl({
          state: "9b2f0c1e-state",
          scopes: ["extra:scope"],
          extraParams: { login_hint: "ada@example.com", client_id: "someone-else" },
          codeVerifier: CODE_VERIFIER,
        }),
      );
      expect(`${url.origin}${url.pathname}`).toBe(`${fake.origin}${c.behaviour.authorizePath}`);
      expect(url.search).not.toContain("+");
      const params = Object.fromEntries(url.searchParams);
      expect(params).toEqual({
        client_id: fake.clientId,
        redirect_uri: REDIRECT_URI,
        response_type: "code",
        scope: [...c.defaultScopes, "extra:scope"].join(" "),
        state: "9b2f0c1e-state",
        login_hint: "ada@example.com",
        ...c.authorizationParams,
        ...(c.behaviour.pkce
          ? {
              code_challenge: createHash("sha256").update(CODE_VERIFIER).digest("base64url"),
              code_challenge_method: "S256",
            }
          : {}),
      });
      const back = await authorize(url.toString());
      expect(back.state).toBe("9b2f0c1e-state");
      expect(back.code).not.toBe("");
    });

    it("exchanges the code at the token endpoint, authenticating the client the provider's way", async () => {
      const { tokens } = await signIn(build().provider);
      expect(tokens.accessToken).toMatch(/^[0-9a-f]{32}$/);
      const exchange = fake.requests.find((r) => r.method === "POST");
      const form = new URLSearchParams(exchange?.body);
      expect(form.get("grant_type")).toBe("authorization_code");
      expect(form.get("redirect_uri")).toBe(REDIRECT_URI);
      if (c.behaviour.clientAuth === "basic") {
        expect(exchange?.headers.authorization).toMatch(/^Basic /);
        expect(form.has("client_secret")).toBe(false);
      } else {
        expect(form.get("client_secret")).toBe(fake.secret);
        expect(exchange?.headers.authorization).toBeUndefined();
      }
    });

    it("maps the signed-in person as the reference maps the provider's answer", async () => {
      const { provider } = build();
      const { tokens } = await signIn(provider);
      const user = await provider.fetchUser(tokens);
      expect(user).toEqual(c.expected(fake));
    });

    it("refuses a code used twice with the provider's own error", async () => {
      const { provider } = build();
      const { code } = await signIn(provider);
      const error = await failure(provider.exchangeCode(code), "externalCodeExchangeFailed");
      expect(error.code).toBe("unexpected_failure");
      expect(error.message).toBe(`Unable to exchange external code: ${code.slice(0, 4)}`);
      expect(String(error.cause)).toContain(c.badCodeWords);
    });

    if (c.behaviour.pkce)
      it("exchanges a code only with the verifier of its challenge", async () => {
        const { provider } = build();
        const url = provider.authorizationUrl({
          state: "s",
          scopes: [],
          extraParams: {},
          codeVerifier: CODE_VERIFIER,
        });
        const { code } = await authorize(url);
        const error = await failure(
          provider.exchangeCode(code, "another-verifier-0123456789-abcdefghijklmnop"),
          "externalCodeExchangeFailed",
        );
        expect(String(error.cause)).toContain(c.badCodeWords);
      });

    it("refuses a wrong client secret, and no error shows either secret", async () => {
      const wrong = "wrong-s3cret-0123";
      const { code } = await authorize(
        build().provider.authorizationUrl({
          state: "s",
          scopes: [],
          extraParams: {},
          codeVerifier: CODE_VERIFIER,
        }),
      );
      const error = await failure(
        build({ secret: wrong }).provider.exchangeCode(code, CODE_VERIFIER),
        "externalCodeExchangeFailed",
      );
      for (const text of [error.message, String(error.cause)]) {
        expect(text).not.toContain(wrong);
        expect(text).not.toContain(fake.secret);
      }
    });

    it("fails to fetch the person once the provider has revoked the token", async () => {
      const { provider } = build();
      const { tokens } = await signIn(provider);
      fake.revokeTokens();
      fake.person = { ...fake.person, id: "changed" };
      const result = provider.fetchUser(tokens);
      // Providers that sign in with the ID token need no further call; the others must be refused.
      if (c.signsInWithIdToken) {
        expect((await result).subject).toBe(c.expected(fake).subject);
      } else {
        const error = await failure(result, "externalUserFetchFailed");
        expect(error.message).toBe("Error getting user profile from external provider");
      }
    });

    it("fails with an AuthError when the provider answers HTTP 500", async () => {
      const { provider } = build();
      const { code } = await authorize(
        provider.authorizationUrl({ state: "s", scopes: [], extraParams: {}, codeVerifier: CODE_VERIFIER }),
      );
      fake.failNext("server_error");
      const error = await failure(provider.exchangeCode(code), "externalCodeExchangeFailed");
      expect(String(error.cause)).toContain("HTTP 500");
    });

    it("gives up on a provider that does not answer in time", async () => {
      const { provider } = build({ timeoutMs: 300 });
      const { code } = await authorize(
        provider.authorizationUrl({ state: "s", scopes: [], extraParams: {}, codeVerifier: CODE_VERIFIER }),
      );
      fake.failNext("hang");
      const started = Date.now();
      const error = await failure(provider.exchangeCode(code), "externalCodeExchangeFailed");
      expect(Date.now() - started).toBeLessThan(2500);
      expect(String(error.cause)).toContain("no answer within 300 ms");
    });

    it("fails with an AuthError when the provider drops the connection while the person is fetched", async () => {
      const { provider } = build();
      const { tokens } = await signIn(provider);
      fake.failNext("disconnect");
      await failure(provider.fetchUser(tokens), "externalUserFetchFailed");
    });

    it("fails with an AuthError when nothing listens at the base URL", async () => {
      const closed = await startCase(c);
      await closed.fake.close();
      const error = await failure(
        build({ url: closed.fake.url }).provider.exchangeCode("abcdef"),
        "externalCodeExchangeFailed",
      );
      expect(String(error.cause)).toContain("ECONNREFUSED");
    });
  });
}
