import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { type CborValue, cbor } from "./cbor.js";

/** The credential key types a software authenticator makes: ECDSA P-256 or RSA PKCS#1 v1.5, SHA-256. */
export type SoftwareAlgorithm = "ES256" | "RS256";

/** The authenticator data flags (WebAuthn §6.1): user present, verified, backup eligible, backed up. */
export interface AuthenticatorFlags {
  readonly up: boolean;
  readonly uv: boolean;
  readonly be: boolean;
  readonly bs: boolean;
}

export interface SoftwareAuthenticatorOptions {
  readonly algorithm?: SoftwareAlgorithm;
  /** `none`, or `packed` self attestation (signed with the credential's own key). */
  readonly attestation?: "none" | "packed";
  /** The model's AAGUID; all zeros when absent. */
  readonly aaguid?: string;
  /** Flags set on every answer unless a call overrides them; UP and UV on, BE and BS off by default. */
  readonly flags?: Partial<AuthenticatorFlags>;
  /** Whether the signature counter advances (an authenticator may keep none: always 0). */
  readonly counts?: boolean;
}

/** What a test may falsify in one answer: where it claims to come from, what it signs, its flags. */
export interface Tampering {
  readonly origin?: string;
  readonly rpId?: string;
  readonly challenge?: string;
  readonly type?: string;
  readonly flags?: Partial<AuthenticatorFlags>;
  readonly signCount?: number;
  /** Assertions: the user handle sent (base64url of these UTF-8 bytes), or null for none. */
  readonly userHandle?: string | null;
  /**
   * Assertions: sign with this credential (by id, base64url) instead of the first one for the RP.
   * Registrations: give the new credential (a new key) this id, as one copying another's would.
   */
  readonly credentialId?: string;
}

interface StoredCredential {
  readonly id: Buffer;
  readonly key: KeyObject;
  readonly rpId: string;
  readonly userHandle: Buffer;
  counter: number;
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();

/**
 * A WebAuthn authenticator in memory, for tests: it makes discoverable credentials (ES256 or RS256),
 * answers creation options with a `none` or `packed` self attestation and request options with an
 * assertion, as a browser would hand them to a server (the W3C JSON shape, base64url), keeping its
 * signature counters. Every part of an answer a server must check can be falsified (`Tampering`).
 */
export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];
  private readonly algorithm: SoftwareAlgorithm;
  private readonly attestation: "none" | "packed";
  private readonly aaguid: Buffer;
  private readonly flags: AuthenticatorFlags;
  private readonly counts: boolean;

  constructor(
    private readonly origin: string,
    options: SoftwareAuthenticatorOptions = {},
  ) {
    this.algorithm = options.algorithm ?? "ES256";
    this.attestation = options.attestation ?? "none";
    this.aaguid = Buffer.from(
      (options.aaguid ?? "00000000-0000-0000-0000-000000000000").replaceAll("-", ""),
      "hex",
    );
    this.flags = { up: true, uv: true, be: false, bs: false, ...options.flags };
    this.counts = options.counts ?? true;
  }

  /** Answers creation options (`PublicKeyCredentialCreationOptionsJSON`) with a registration response. */
  register(options: Record<string, unknown>, tamper: Tampering = {}): Record<string, unknown> {
    const rp = options.rp as { id?: string };
    const user = options.user as { id: string };
    const rpId = rp.id ?? new URL(this.origin).hostname;
    const key =
      this.algorithm === "ES256"
        ? generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey
        : generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const credential: StoredCredential = {
      id: tamper.credentialId ? Buffer.from(tamper.credentialId, "base64url") : randomBytes(32),
      key,
      rpId,
      userHandle: Buffer.from(user.id, "base64url"),
      counter: 0,
    };
    const signCount = tamper.signCount ?? (this.counts ? ++credential.counter : 0);
    const attested = Buffer.concat([
      this.aaguid,
      Buffer.from([credential.id.length >> 8, credential.id.length & 0xff]),
      credential.id,
      cbor(this.coseKey(key)),
    ]);
    const authData = this.authData(
      tamper.rpId ?? rpId,
      { ...this.flags, ...tamper.flags },
      signCount,
      attested,
    );
    const clientData = this.clientData("webauthn.create", String(options.challenge), tamper);
    const attStmt: CborValue =
      this.attestation === "packed"
        ? new Map<string, CborValue>([
            ["alg", this.coseAlgorithm()],
            ["sig", this.signature(key, authData, clientData)],
          ])
        : new Map();
    const attestationObject = cbor(
      new Map<string, CborValue>([
        ["fmt", this.attestation],
        ["attStmt", attStmt],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** Answers request options (`PublicKeyCredentialRequestOptionsJSON`) with an assertion. */
  assert(options: Record<string, unknown>, tamper: Tampering = {}): Record<string, unknown> {
    const rpId = String(options.rpId ?? new URL(this.origin).hostname);
    const credential = this.credentials.find((c) =>
      tamper.credentialId ? b64url(c.id) === tamper.credentialId : c.rpId === rpId,
    );
    if (credential === undefined) throw new Error(`no credential for ${rpId}`);
    if (this.counts) credential.counter += 1;
    const signCount = tamper.signCount ?? credential.counter;
    const authData = this.authData(tamper.rpId ?? rpId, { ...this.flags, ...tamper.flags }, signCount);
    const clientData = this.clientData("webauthn.get", String(options.challenge), tamper);
    const userHandle =
      tamper.userHandle === undefined
        ? b64url(credential.userHandle)
        : tamper.userHandle === null
          ? undefined
          : b64url(Buffer.from(tamper.userHandle, "utf8"));
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(this.signature(credential.key, authData, clientData)),
        ...(userHandle === undefined ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  private authData(rpId: string, flags: AuthenticatorFlags, signCount: number, attested?: Buffer): Buffer {
    const bits =
      (flags.up ? 0x01 : 0) |
      (flags.uv ? 0x04 : 0) |
      (flags.be ? 0x08 : 0) |
      (flags.bs ? 0x10 : 0) |
      (attested ? 0x40 : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount >>> 0);
    return Buffer.concat([sha256(rpId), Buffer.from([bits]), counter, attested ?? Buffer.alloc(0)]);
  }

  private clientData(type: string, challenge: string, tamper: Tampering): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: tamper.type ?? type,
        challenge: tamper.challenge ?? challenge,
        origin: tamper.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** WebAuthn signs authenticator data followed by the SHA-256 of the client data (DER for ECDSA). */
  private signature(key: KeyObject, authData: Buffer, clientData: Buffer): Buffer {
    return sign("sha256", Buffer.concat([authData, sha256(clientData)]), key);
  }

  private coseAlgorithm(): number {
    return this.algorithm === "ES256" ? -7 : -257;
  }

  /** The public key as a COSE_Key map (RFC 9053): EC2 with x and y, or RSA with n and e. */
  private coseKey(key: KeyObject): CborValue {
    const jwk = key.export({ format: "jwk" });
    const bytes = (field: string | undefined) => Buffer.from(field ?? "", "base64url");
    if (this.algorithm === "ES256") {
      return new Map<number, CborValue>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, bytes(jwk.x)],
        [-3, bytes(jwk.y)],
      ]);
    }
    return new Map<number, CborValue>([
      [1, 3],
      [3, -257],
      [-1, bytes(jwk.n)],
      [-2, bytes(jwk.e)],
    ]);
  }
}
