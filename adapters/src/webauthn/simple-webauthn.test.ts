import type { CeremonyState, KnownCredential, RegisteredCredential } from "@authsvc/core/passkeys";
import { describe, expect, it } from "vitest";
import {
  SoftwareAuthenticator,
  type SoftwareAuthenticatorOptions,
  type Tampering,
} from "../testing/webauthn/software-authenticator.js";
import { simpleWebAuthn } from "./simple-webauthn.js";

const ORIGIN = "http://localhost:5173";
const rp = { id: "localhost", name: "authsvc", origins: [ORIGIN, "https://app.example.com"] };
const USER_ID = "0b5f4a63-2a39-4e1b-9d2f-7b8c1e0f6a11";
const account = { id: USER_ID, name: "ada@example.com", displayName: "Ada" };
const webauthn = simpleWebAuthn();

async function registered(options: SoftwareAuthenticatorOptions = {}, tamper: Tampering = {}) {
  const authenticator = new SoftwareAuthenticator(ORIGIN, options);
  const ceremony = await webauthn.creationOptions({ rp, account, exclude: [], flavour: "passkey" });
  const response = authenticator.register(ceremony.options, tamper);
  const verified = await webauthn.verifyRegistration(rp, ceremony.state, response);
  return { authenticator, ceremony, response, verified };
}

async function credentialOf(options: SoftwareAuthenticatorOptions = {}) {
  const { authenticator, verified } = await registered(options);
  if (!verified.ok) throw new Error(verified.reason);
  return { authenticator, credential: verified.value };
}

const known = (c: RegisteredCredential, signCount = c.signCount): KnownCredential => ({ ...c, signCount });

async function asserted(
  authenticator: SoftwareAuthenticator,
  credential: KnownCredential,
  tamper: Tampering = {},
  state?: CeremonyState,
) {
  const ceremony = await webauthn.requestOptions({ rp, allow: [], flavour: "passkey" });
  const response = authenticator.assert(ceremony.options, tamper);
  return webauthn.verifyAssertion(rp, state ?? ceremony.state, response, credential);
}

describe("simpleWebAuthn: options", () => {
  it("passkey creation options: the user id is the UTF-8 text of the id, a discoverable credential, no attestation", async () => {
    const { options, state } = await webauthn.creationOptions({
      rp,
      account,
      exclude: [{ id: "AQID", transports: ["internal"] }],
      flavour: "passkey",
    });
    const user = options.user as { id: string; name: string; displayName: string };
    expect(Buffer.from(user.id, "base64url").toString("utf8")).toBe(USER_ID);
    expect(user).toMatchObject({ name: "ada@example.com", displayName: "Ada" });
    expect(options.rp).toEqual({ name: "authsvc", id: "localhost" });
    expect(options.authenticatorSelection).toEqual({
      residentKey: "required",
      userVerification: "preferred",
    });
    expect(options.attestation).toBe("none");
    expect(options.timeout).toBe(300_000);
    expect(options.excludeCredentials).toEqual([
      { id: "AQID", type: "public-key", transports: ["internal"] },
    ]);
    expect((options.pubKeyCredParams as { alg: number }[]).map((p) => p.alg)).toEqual([
      -7, -35, -36, -257, -258, -259, -37, -38, -39, -8,
    ]);
    expect(state.challenge).toBe(options.challenge);
    expect(Buffer.from(state.challenge, "base64url")).toHaveLength(32);
  });

  it("MFA options leave the authenticator selection and attestation to the browser", async () => {
    const { options } = await webauthn.creationOptions({ rp, account, exclude: [], flavour: "mfa" });
    expect(options).not.toHaveProperty("authenticatorSelection");
    expect(options).not.toHaveProperty("attestation");
  });

  it("request options for a discoverable credential name none", async () => {
    const { options } = await webauthn.requestOptions({ rp, allow: [], flavour: "passkey" });
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "preferred", timeout: 300_000 });
    expect(options).not.toHaveProperty("allowCredentials");
  });

  it("two ceremonies never share a challenge", async () => {
    const a = await webauthn.requestOptions({ rp, allow: [], flavour: "passkey" });
    const b = await webauthn.requestOptions({ rp, allow: [], flavour: "passkey" });
    expect(a.state.challenge).not.toBe(b.state.challenge);
  });
});

describe("simpleWebAuthn: registration", () => {
  it.each([
    ["ES256", "none"],
    ["ES256", "packed"],
    ["RS256", "none"],
    ["RS256", "packed"],
  ] as const)("accepts an %s credential with %s attestation", async (algorithm, attestation) => {
    const { verified, response } = await registered({ algorithm, attestation });
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.value.credentialId).toBe(response.id);
    expect(verified.value.attestationType).toBe(attestation);
    expect(verified.value.signCount).toBe(1);
    expect(verified.value.aaguid).toBeNull();
  });

  it("keeps the AAGUID and the backup flags", async () => {
    const aaguid = "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4";
    const { verified } = await registered({ aaguid, flags: { be: true, bs: true } });
    expect(verified.ok && verified.value).toMatchObject({ aaguid, backupEligible: true, backedUp: true });
    expect(webauthn.authenticatorName(aaguid)).toBe("Google Password Manager");
    expect(webauthn.authenticatorName(null)).toBe("Passkey");
    expect(webauthn.authenticatorName("01234567-89ab-cdef-0123-456789abcdef")).toBe("Passkey");
  });

  it.each<[string, Tampering]>([
    ["another origin", { origin: "https://evil.example" }],
    ["another RP id", { rpId: "evil.example" }],
    ["another challenge", { challenge: Buffer.alloc(32, 7).toString("base64url") }],
    ["an assertion's client data type", { type: "webauthn.get" }],
    ["no user presence", { flags: { up: false } }],
  ])("refuses %s", async (_, tamper) => {
    const { verified } = await registered({}, tamper);
    expect(verified.ok).toBe(false);
  });

  it("refuses a packed self attestation whose signature does not match", async () => {
    const authenticator = new SoftwareAuthenticator(ORIGIN, { attestation: "packed" });
    const ceremony = await webauthn.creationOptions({ rp, account, exclude: [], flavour: "passkey" });
    const response = authenticator.register(ceremony.options) as { response: { clientDataJSON: string } };
    const other = JSON.parse(Buffer.from(response.response.clientDataJSON, "base64url").toString());
    // The client data changes after it was signed: the attestation signature no longer covers it.
    response.response.clientDataJSON = Buffer.from(JSON.stringify({ ...other, crossOrigin: true })).toString(
      "base64url",
    );
    expect((await webauthn.verifyRegistration(rp, ceremony.state, response)).ok).toBe(false);
  });

  it("refuses no user verification only when it was required", async () => {
    const preferred = await registered({ flags: { uv: false } });
    expect(preferred.verified.ok).toBe(true);
    const authenticator = new SoftwareAuthenticator(ORIGIN, { flags: { uv: false } });
    const ceremony = await webauthn.creationOptions({ rp, account, exclude: [], flavour: "passkey" });
    const response = authenticator.register(ceremony.options);
    const required = { ...ceremony.state, userVerification: "required" };
    expect((await webauthn.verifyRegistration(rp, required, response)).ok).toBe(false);
  });

  it.each([null, "x", {}, { id: "AQID", rawId: "AQID", type: "public-key", response: {} }, []])(
    "refuses a malformed response (%j) without throwing",
    async (response) => {
      const ceremony = await webauthn.creationOptions({ rp, account, exclude: [], flavour: "passkey" });
      expect((await webauthn.verifyRegistration(rp, ceremony.state, response)).ok).toBe(false);
    },
  );
});

describe("simpleWebAuthn: assertion", () => {
  it.each(["ES256", "RS256"] as const)(
    "verifies an %s assertion and reads the counter and user handle",
    async (algorithm) => {
      const { authenticator, credential } = await credentialOf({ algorithm });
      const ceremony = await webauthn.requestOptions({ rp, allow: [], flavour: "passkey" });
      const response = authenticator.assert(ceremony.options);
      expect(webauthn.readAssertion(response)).toEqual({
        credentialId: credential.credentialId,
        userHandle: USER_ID,
      });
      const verified = await webauthn.verifyAssertion(rp, ceremony.state, response, known(credential));
      expect(verified).toEqual({ ok: true, value: { signCount: 2, backupEligible: false, backedUp: false } });
    },
  );

  it("accepts a counter that stays 0 (an authenticator that keeps none)", async () => {
    const { authenticator, credential } = await credentialOf({ counts: false });
    expect(credential.signCount).toBe(0);
    expect((await asserted(authenticator, known(credential))).ok).toBe(true);
    expect((await asserted(authenticator, known(credential))).ok).toBe(true);
  });

  it("refuses a counter that did not advance (a cloned authenticator)", async () => {
    const { authenticator, credential } = await credentialOf();
    expect((await asserted(authenticator, known(credential, 5), { signCount: 5 })).ok).toBe(false);
    expect((await asserted(authenticator, known(credential, 5), { signCount: 3 })).ok).toBe(false);
    expect((await asserted(authenticator, known(credential, 5), { signCount: 6 })).ok).toBe(true);
  });

  it.each<[string, Tampering]>([
    ["another origin", { origin: "https://evil.example" }],
    ["another RP id", { rpId: "evil.example" }],
    ["another challenge", { challenge: Buffer.alloc(32, 9).toString("base64url") }],
    ["a registration's client data type", { type: "webauthn.create" }],
    ["no user presence", { flags: { up: false } }],
  ])("refuses %s", async (_, tamper) => {
    const { authenticator, credential } = await credentialOf();
    expect((await asserted(authenticator, known(credential), tamper)).ok).toBe(false);
  });

  it("refuses a signature by another credential's key", async () => {
    const { authenticator } = await credentialOf();
    const { credential: other } = await credentialOf();
    expect(
      (
        await asserted(
          authenticator,
          known({ ...other, credentialId: authenticator.credentials[0]?.id.toString("base64url") ?? "" }),
        )
      ).ok,
    ).toBe(false);
  });

  it("refuses no user verification only when it was required", async () => {
    const { authenticator, credential } = await credentialOf({ flags: { uv: false } });
    expect((await asserted(authenticator, known(credential))).ok).toBe(true);
    const ceremony = await webauthn.requestOptions({ rp, allow: [], flavour: "passkey" });
    const response = authenticator.assert(ceremony.options);
    const required = { ...ceremony.state, userVerification: "required" };
    expect((await webauthn.verifyAssertion(rp, required, response, known(credential, 10))).ok).toBe(false);
  });

  it("reports the backup flags as the authenticator sets them", async () => {
    const { authenticator, credential } = await credentialOf({ flags: { be: true } });
    const verified = await asserted(authenticator, known(credential), { flags: { be: true, bs: true } });
    expect(verified).toMatchObject({ ok: true, value: { backupEligible: true, backedUp: true } });
  });

  it("reads no user handle from an assertion without one, and refuses malformed ones", async () => {
    const { authenticator } = await credentialOf();
    const ceremony = await webauthn.requestOptions({ rp, allow: [], flavour: "passkey" });
    const response = authenticator.assert(ceremony.options, { userHandle: null });
    expect(webauthn.readAssertion(response)?.userHandle).toBeNull();
    expect(webauthn.readAssertion({ id: "AQID" })).toBeNull();
    expect(webauthn.readAssertion("x")).toBeNull();
  });
});
