import { randomBytes } from "node:crypto";
import { externalProvider } from "@authsvc/adapters";
import type { IdTokenVerifier } from "@authsvc/core/external";
import { SignJWT, UnsecuredJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appleCase } from "../testing/providers/apple.js";
import { azureCase } from "../testing/providers/azure.js";
import { facebookCase } from "../testing/providers/facebook.js";
import type { FakeProvider } from "../testing/providers/fake-provider.js";
import { googleCase } from "../testing/providers/google.js";
import { keycloakCase } from "../testing/providers/keycloak.js";
import { failure, type ProviderCase, startCase } from "../testing/providers/provider-suite.js";

// The OpenID providers whose ID tokens the id_token grant accepts, as in the reference.
const GRANT_CASES: readonly ProviderCase[] = [appleCase, azureCase, facebookCase, googleCase, keycloakCase];

const jwksRequests = (fake: FakeProvider) =>
  fake.requests.filter((r) => /keys|certs|jwks/.test(r.path)).length;

for (const c of GRANT_CASES) {
  describe(`${c.name} ID tokens`, () => {
    let fake: FakeProvider;
    let verifier: IdTokenVerifier;
    let build: Awaited<ReturnType<typeof startCase>>["build"];
    beforeEach(async () => {
      ({ fake, build } = await startCase(c));
      const built = build().idTokenVerifier;
      if (!built) throw new Error(`${c.name} has no ID-token verifier`);
      verifier = built;
    });
    afterEach(() => fake.close());

    it("accepts a token the provider signed for this client, with its nonce", async () => {
      const token = await fake.signIdToken({ sub: "u-1", email: "ada@example.com", nonce: "abc123" });
      const { user, nonce } = await verifier.verify(token);
      expect(user.subject).toBe("u-1");
      expect(user.emails.map((e) => e.email)).toEqual(["ada@example.com"]);
      expect(user.identityData).toMatchObject({ sub: "u-1", provider_id: "u-1", iss: fake.issuer });
      expect(nonce).toBe("abc123");
      expect(verifier.skipNonceCheck ?? false).toBe(c.name === "facebook");
    });

    it("answers a null nonce when the token has none", async () => {
      expect((await verifier.verify(await fake.signIdToken({ sub: "u-1" }))).nonce).toBeNull();
    });

    it("refuses a token from another issuer", async () => {
      const error = await failure(
        verifier.verify(await fake.signIdToken({ sub: "u-1", iss: "https://evil.example.com" })),
        "badIdToken",
      );
      expect(error.message).toBe("Bad ID token");
    });

    it("refuses a token for another client, naming its audience", async () => {
      const error = await failure(
        verifier.verify(await fake.signIdToken({ sub: "u-1", aud: ["someone-else"] })),
        "idTokenAudienceUnacceptable",
      );
      expect(error.message).toBe("Unacceptable audience in id_token: [someone-else]");
    });

    it("accepts every configured client id as audience", async () => {
      const both = build();
      const second = externalProvider(c.name, {
        clientIds: ["web-client", fake.clientId],
        secret: fake.secret,
        redirectUri: "https://auth.example.com/callback",
        url: fake.url,
      }).idTokenVerifier;
      expect(both.idTokenVerifier).not.toBeNull();
      const token = await fake.signIdToken({ sub: "u-1", aud: fake.clientId });
      expect((await second?.verify(token))?.user.subject).toBe("u-1");
    });

    it("refuses an expired token", async () => {
      const past = Math.floor(Date.now() / 1000) - 7200;
      await failure(
        verifier.verify(await fake.signIdToken({ sub: "u-1", iat: past, exp: past + 60 })),
        "badIdToken",
      );
    });

    it("refuses an unsigned token (alg none) and one signed with a shared secret (HS256)", async () => {
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: "u-1", iss: fake.issuer, aud: fake.clientId, iat: now, exp: now + 600 };
      await failure(verifier.verify(new UnsecuredJWT(claims).encode()), "badIdToken");
      const hs = await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", kid: "any" })
        .sign(new TextEncoder().encode(fake.secret));
      await failure(verifier.verify(hs), "badIdToken");
    });

    it("refuses a token whose signature does not match", async () => {
      const token = await fake.signIdToken({ sub: "u-1" });
      const [header, payload] = token.split(".");
      const forged = `${header}.${payload}.${randomBytes(256).toString("base64url")}`;
      await failure(verifier.verify(forged), "badIdToken");
    });

    it("fetches the keys again when the provider has rotated them (unknown kid)", async () => {
      await verifier.verify(await fake.signIdToken({ sub: "u-1" }));
      await fake.rotateKey();
      const { user } = await verifier.verify(await fake.signIdToken({ sub: "u-2" }));
      expect(user.subject).toBe("u-2");
      expect(jwksRequests(fake)).toBe(2);
    });

    it("fails as the provider's fault when its keys cannot be fetched", async () => {
      const token = await fake.signIdToken({ sub: "u-1" });
      fake.failNext("server_error");
      await failure(verifier.verify(token), "idTokenKeysUnavailable");
    });
  });
}

describe("ID-token verifiers", () => {
  it("fetch the key set at most once per cooldown, whatever kids forged tokens name", async () => {
    const { fake } = await startCase(keycloakCase);
    try {
      const verifier = externalProvider("keycloak", {
        clientIds: [fake.clientId],
        secret: fake.secret,
        redirectUri: "https://auth.example.com/callback",
        url: fake.url,
      }).idTokenVerifier;
      if (!verifier) throw new Error("keycloak has no ID-token verifier");
      await verifier.verify(await fake.signIdToken({ sub: "u-1" }));
      for (const kid of ["k1", "k2", "k3", "k4"]) {
        await failure(verifier.verify(await fake.signIdToken({ sub: "u-1" }, { kid })), "badIdToken");
      }
      expect(jwksRequests(fake)).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it("exist for the OpenID providers of the id_token grant only", () => {
    const settings = {
      clientIds: ["c"],
      secret: "s",
      redirectUri: "https://a.example.com/callback",
      url: "https://idp.example.com",
    };
    const names = [
      "apple",
      "azure",
      "facebook",
      "google",
      "keycloak",
      "linkedin_oidc",
      "github",
      "zoom",
    ] as const;
    const withVerifier = names.filter((name) => externalProvider(name, settings).idTokenVerifier !== null);
    expect(withVerifier).toEqual(["apple", "azure", "facebook", "google", "keycloak"]);
  });
});
