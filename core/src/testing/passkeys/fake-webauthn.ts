import type { CeremonyState, WebAuthn } from "../../passkeys/index.js";

/**
 * A `WebAuthn` without cryptography, for the use cases' rules: a response is a plain object
 * (`fakeAttestation`, `fakeAssertion`) that passes when it names the ceremony's challenge and, for an
 * assertion, the credential's public key. The real verification (signatures, origins, flags) is the
 * adapter's, tested with a software authenticator.
 */
export function fakeWebAuthn(): WebAuthn {
  let n = 0;
  const ceremony = (options: Record<string, unknown>) => {
    const challenge = `challenge-${++n}`;
    const state: CeremonyState = { challenge, userVerification: "preferred" };
    return { options: { ...options, challenge }, state };
  };
  const field = (response: unknown, name: string): unknown =>
    typeof response === "object" && response !== null
      ? (response as Record<string, unknown>)[name]
      : undefined;
  return {
    async creationOptions(input) {
      return ceremony({ user: input.account, excludeCredentials: input.exclude });
    },
    async requestOptions(input) {
      return ceremony({ rpId: input.rp.id, allowCredentials: input.allow });
    },
    async verifyRegistration(_rp, state, response) {
      const credentialId = field(response, "credentialId");
      if (field(response, "challenge") !== state.challenge || typeof credentialId !== "string")
        return { ok: false, reason: "challenge" };
      return {
        ok: true,
        value: {
          credentialId,
          publicKey: `key-of-${credentialId}`,
          attestationType: "none",
          aaguid: null,
          signCount: 0,
          transports: ["internal"],
          backupEligible: field(response, "backupEligible") === true,
          backedUp: false,
        },
      };
    },
    readAssertion(response) {
      const credentialId = field(response, "credentialId");
      const userHandle = field(response, "userHandle");
      if (typeof credentialId !== "string") return null;
      return { credentialId, userHandle: typeof userHandle === "string" ? userHandle : null };
    },
    async verifyAssertion(_rp, state, response, credential) {
      if (field(response, "challenge") !== state.challenge) return { ok: false, reason: "challenge" };
      if (field(response, "publicKey") !== credential.publicKey) return { ok: false, reason: "signature" };
      const signCount = Number(field(response, "signCount") ?? 0);
      return {
        ok: true,
        value: {
          signCount,
          backupEligible: field(response, "backupEligible") === true,
          backedUp: field(response, "backedUp") === true,
        },
      };
    },
    authenticatorName: () => "Passkey",
  };
}
