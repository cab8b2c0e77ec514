import { createRequire } from "node:module";
import type {
  AssertionClaim,
  Ceremony,
  CeremonyFlavour,
  CeremonyState,
  WebAuthn,
} from "@authsvc/core/passkeys";
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";

/**
 * `@simplewebauthn/server` (with its ASN.1 and CBOR parsers), imported at the first ceremony or at
 * start (`eager`): a server where nobody uses passkeys or WebAuthn factors does not carry it.
 */
let library: Promise<typeof import("@simplewebauthn/server")> | undefined;
const webauthnLibrary = () => {
  library ??= import("@simplewebauthn/server");
  return library;
};

/**
 * The AAGUID → authenticator model names the `aaguids` package maintains (a CommonJS JSON list of some
 * hundreds of entries), read at the first name asked for.
 */
let authenticatorNames: Readonly<Record<string, string>> | undefined;
const authenticatorNamesOnce = () => {
  authenticatorNames ??= createRequire(import.meta.url)("aaguids") as Readonly<Record<string, string>>;
  return authenticatorNames;
};

/** The algorithms offered, in the reference's order (go-webauthn's defaults). */
const ALGORITHMS = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8];
/** The timeout the options announce (ms); the challenge's own expiry is what is enforced. */
const TIMEOUT_MS = 300_000;
const ZERO_AAGUID = "00000000-0000-0000-0000-000000000000";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isBase64url = (value: unknown): value is string =>
  typeof value === "string" && value !== "" && /^[A-Za-z0-9_-]+={0,2}$/.test(value);

/** A registration response in the W3C JSON shape, or null (bad shapes are refused before the library). */
function registrationResponse(value: unknown): RegistrationResponseJSON | null {
  if (!isObject(value) || !isObject(value.response)) return null;
  const { id, rawId, type, response } = value;
  if (!isBase64url(id) || !isBase64url(rawId) || type !== "public-key") return null;
  if (!isBase64url(response.clientDataJSON) || !isBase64url(response.attestationObject)) return null;
  return value as unknown as RegistrationResponseJSON;
}

function authenticationResponse(value: unknown): AuthenticationResponseJSON | null {
  if (!isObject(value) || !isObject(value.response)) return null;
  const { id, rawId, type, response } = value;
  if (!isBase64url(id) || !isBase64url(rawId) || type !== "public-key") return null;
  if (!isBase64url(response.clientDataJSON) || !isBase64url(response.authenticatorData)) return null;
  if (!isBase64url(response.signature)) return null;
  if (response.userHandle !== undefined && response.userHandle !== null && !isBase64url(response.userHandle))
    return null;
  return value as unknown as AuthenticationResponseJSON;
}

const transports = (list: readonly string[]) => list as AuthenticatorTransport[];

const refusal = (thrown: unknown) => ({
  ok: false as const,
  reason: thrown instanceof Error ? thrown.message : "verification failed",
});

/** The user verification a ceremony asked for, and so what its answer must show. */
function userVerificationOf(flavour: CeremonyFlavour): CeremonyState["userVerification"] {
  return flavour === "passkey" ? "preferred" : "";
}

/**
 * `WebAuthn` on `@simplewebauthn/server`: it makes the options and verifies attestations (every
 * format it knows, `none` and `packed` included) and assertions (client data type, challenge, origin,
 * RP id hash, user presence, signature, counter). The user handle is the UTF-8 text of the user id
 * (36 bytes), as the reference encodes it, so credentials made against either server work on both.
 */
export function simpleWebAuthn({ eager = false }: { eager?: boolean } = {}): WebAuthn {
  // Loaded now for a server with passkeys or WebAuthn factors on, so the first ceremony does not wait
  // for the import; a failure here surfaces (again) at that first use.
  if (eager) webauthnLibrary().catch(() => {});
  return {
    async creationOptions({ rp, account, exclude, flavour }): Promise<Ceremony> {
      const { generateRegistrationOptions } = await webauthnLibrary();
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: account.name,
        userID: new TextEncoder().encode(account.id),
        userDisplayName: account.displayName,
        timeout: TIMEOUT_MS,
        attestationType: "none",
        excludeCredentials: exclude.map((c) => ({ id: c.id, transports: transports(c.transports) })),
        supportedAlgorithmIDs: ALGORITHMS,
        ...(flavour === "passkey"
          ? { authenticatorSelection: { residentKey: "required", userVerification: "preferred" } }
          : { authenticatorSelection: {} }),
      });
      const shaped: Record<string, unknown> = { ...options };
      // The library fills in choices the reference's MFA options leave to the browser.
      // The reference asks `residentKey: "required"` alone (the library adds the legacy
      // `requireResidentKey`).
      if (flavour === "passkey")
        shaped.authenticatorSelection = { residentKey: "required", userVerification: "preferred" };
      if (flavour === "mfa") {
        delete shaped.authenticatorSelection;
        delete shaped.attestation;
      }
      delete shaped.extensions;
      delete shaped.hints;
      return {
        options: shaped,
        state: { challenge: options.challenge, userVerification: userVerificationOf(flavour) },
      };
    },

    async requestOptions({ rp, allow, flavour }): Promise<Ceremony> {
      const { generateAuthenticationOptions } = await webauthnLibrary();
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        timeout: TIMEOUT_MS,
        allowCredentials: allow.map((c) => ({ id: c.id, transports: transports(c.transports) })),
        userVerification: "preferred",
      });
      const shaped: Record<string, unknown> = { ...options };
      if (allow.length === 0) delete shaped.allowCredentials;
      if (flavour === "mfa") delete shaped.userVerification;
      return {
        options: shaped,
        state: { challenge: options.challenge, userVerification: userVerificationOf(flavour) },
      };
    },

    async verifyRegistration(rp, state, value) {
      const response = registrationResponse(value);
      if (response === null) return { ok: false, reason: "malformed registration response" };
      const { verifyRegistrationResponse } = await webauthnLibrary();
      try {
        const result = await verifyRegistrationResponse({
          response,
          expectedChallenge: state.challenge,
          expectedOrigin: [...rp.origins],
          expectedRPID: rp.id,
          expectedType: "webauthn.create",
          requireUserPresence: true,
          requireUserVerification: state.userVerification === "required",
          supportedAlgorithmIDs: ALGORITHMS,
        });
        if (!result.verified) return { ok: false, reason: "registration not verified" };
        const info = result.registrationInfo;
        return {
          ok: true,
          value: {
            credentialId: info.credential.id,
            publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
            attestationType: info.fmt,
            aaguid: info.aaguid === ZERO_AAGUID ? null : info.aaguid,
            signCount: info.credential.counter,
            transports: info.credential.transports ?? [],
            backupEligible: info.credentialDeviceType === "multiDevice",
            backedUp: info.credentialBackedUp,
          },
        };
      } catch (thrown) {
        return refusal(thrown);
      }
    },

    readAssertion(value): AssertionClaim | null {
      const response = authenticationResponse(value);
      if (response === null) return null;
      const handle = response.response.userHandle;
      const text = handle ? Buffer.from(handle, "base64url").toString("utf8") : null;
      return { credentialId: response.rawId, userHandle: text };
    },

    async verifyAssertion(rp, state, value, credential) {
      const response = authenticationResponse(value);
      if (response === null) return { ok: false, reason: "malformed authentication response" };
      if (response.id !== response.rawId) return { ok: false, reason: "id and rawId differ" };
      const { verifyAuthenticationResponse } = await webauthnLibrary();
      try {
        const result = await verifyAuthenticationResponse({
          response,
          expectedChallenge: state.challenge,
          expectedOrigin: [...rp.origins],
          expectedRPID: rp.id,
          expectedType: "webauthn.get",
          credential: {
            id: credential.credentialId,
            publicKey: new Uint8Array(Buffer.from(credential.publicKey, "base64url")),
            counter: credential.signCount,
            transports: transports(credential.transports),
          },
          requireUserVerification: state.userVerification === "required",
        });
        if (!result.verified) return { ok: false, reason: "assertion not verified" };
        const info = result.authenticationInfo;
        return {
          ok: true,
          value: {
            signCount: info.newCounter,
            backupEligible: info.credentialDeviceType === "multiDevice",
            backedUp: info.credentialBackedUp,
          },
        };
      } catch (thrown) {
        return refusal(thrown);
      }
    },

    authenticatorName(aaguid) {
      return (aaguid !== null && authenticatorNamesOnce()[aaguid.toLowerCase()]) || "Passkey";
    },
  };
}
