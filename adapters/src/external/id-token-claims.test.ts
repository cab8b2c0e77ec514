import type { IdTokenVerifier } from "@authsvc/core/external";
import { isStorableText } from "@authsvc/core/kernel";
import type { JWTPayload } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appleCase } from "../testing/providers/apple.js";
import { azureCase } from "../testing/providers/azure.js";
import { facebookCase } from "../testing/providers/facebook.js";
import type { FakeProvider } from "../testing/providers/fake-provider.js";
import { googleCase } from "../testing/providers/google.js";
import { keycloakCase } from "../testing/providers/keycloak.js";
import { failure, type ProviderCase, startCase } from "../testing/providers/provider-suite.js";

/** Claims of types the JWT claim set does not allow, as a hostile or broken provider may sign them. */
const hostile = (claims: Record<string, unknown>) => claims as JWTPayload;

const GRANT_CASES: readonly ProviderCase[] = [appleCase, azureCase, facebookCase, googleCase, keycloakCase];

/** Every string and key of a JSON value, depth first. */
function texts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...texts(inner)]);
}

for (const c of GRANT_CASES) {
  describe(`${c.name} ID tokens with claims of the wrong type`, () => {
    let fake: FakeProvider;
    let verifier: IdTokenVerifier;
    beforeEach(async () => {
      const started = await startCase(c);
      fake = started.fake;
      const built = started.build().idTokenVerifier;
      if (!built) throw new Error(`${c.name} has no ID-token verifier`);
      verifier = built;
    });
    afterEach(() => fake.close());

    it("refuse an audience that is not a string or an array of strings as a bad ID token", async () => {
      for (const aud of [5, { client: fake.clientId }, [fake.clientId, 7]]) {
        await failure(verifier.verify(await fake.signIdToken(hostile({ sub: "u-1", aud }))), "badIdToken");
      }
    });

    it("refuse a subject that is not a non-empty string of storable text", async () => {
      for (const sub of [true, 42, "", "u-\ud800", "u\u0000"]) {
        const error = await failure(verifier.verify(await fake.signIdToken(hostile({ sub }))), "badIdToken");
        expect(error.message).toBe("Bad ID token");
      }
    });

    it("refuse a nonce claim that is not a string: it is not the absence of a nonce", async () => {
      for (const nonce of [123, true, { value: "abc" }, ["abc"]]) {
        await failure(verifier.verify(await fake.signIdToken({ sub: "u-1", nonce })), "badIdToken");
      }
      expect((await verifier.verify(await fake.signIdToken({ sub: "u-1", nonce: "abc" }))).nonce).toBe("abc");
    });

    it("map lone surrogates and NUL in descriptive claims to storable text, and drop such an address", async () => {
      const token = await fake.signIdToken({
        sub: "u-1",
        email: "ada\ud800@example.com",
        email_verified: true,
        name: "Ada \udc00Lovelace\u0000",
        preferred_username: "ada\ud83d",
        picture: "https://cdn.example.com/\ud800.png",
        "x-\ud800": { deep: ["\udfff"] },
      });
      const { user } = await verifier.verify(token);
      expect(user.subject).toBe("u-1");
      expect(user.emails).toEqual([]);
      expect(user.identityData.email).toBeUndefined();
      expect(texts(user.identityData).every(isStorableText)).toBe(true);
    });

    it("leave out a descriptive claim of the wrong type instead of storing it", async () => {
      const token = await fake.signIdToken({ sub: "u-1", name: { first: "Ada" }, picture: 12 });
      const { user } = await verifier.verify(token);
      expect(user.identityData.name ?? "").toEqual(expect.any(String));
      expect(user.identityData.picture ?? "").toEqual(expect.any(String));
    });
  });
}
