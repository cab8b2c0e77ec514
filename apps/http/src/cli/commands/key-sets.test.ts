import { parseJwtKeys } from "@authsvc/adapters";
import { describe, expect, it } from "vitest";
import { keysCommand, LEGACY_SECRET_KID } from "./key-sets.js";

type Jwk = Record<string, unknown>;

function run(args: string[], keys?: Jwk[]): Jwk[] {
  const outcome = keysCommand(args, keys ? { AUTHSVC_JWT_KEYS: JSON.stringify(keys) } : {});
  if (!outcome.ok) throw new Error(outcome.error);
  expect(outcome.output.endsWith("\n")).toBe(true);
  expect(outcome.output.trim()).not.toContain("\n");
  expect(parseJwtKeys(outcome.output).ok).toBe(true);
  return JSON.parse(outcome.output) as Jwk[];
}
const errorOf = (args: string[], keys?: Jwk[]): string => {
  const outcome = keysCommand(args, keys ? { AUTHSVC_JWT_KEYS: JSON.stringify(keys) } : {});
  if (outcome.ok) throw new Error("expected a refusal");
  return outcome.error;
};
const signerKid = (keys: Jwk[]) =>
  keys.filter((key) => (key.key_ops as string[]).includes("sign")).map((key) => key.kid);

describe("authsvc keys", () => {
  it("prints a set of one ES256 signing key by default, as supabase gen signing-key shapes it", () => {
    const [key, ...rest] = run([]);
    expect(rest).toEqual([]);
    expect(key).toMatchObject({
      kty: "EC",
      crv: "P-256",
      alg: "ES256",
      use: "sig",
      key_ops: ["sign", "verify"],
      ext: true,
    });
    expect(key?.kid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(key).toHaveProperty("d");
  });

  it.each(["HS256", "RS256", "EdDSA"])("generates a %s key with --alg", (alg) => {
    expect(run(["--alg", alg])[0]?.alg).toBe(alg);
  });

  it("rotates: add a standby key, promote it, remove the previous one", () => {
    const [first] = run([]);
    const withStandby = run(["--add", "--standby", "--alg", "RS256"], [first as Jwk]);
    expect(withStandby).toHaveLength(2);
    expect(signerKid(withStandby)).toEqual([first?.kid]);
    const next = withStandby[1]?.kid as string;
    const promoted = run(["--promote", next], withStandby);
    expect(signerKid(promoted)).toEqual([next]);
    expect(promoted[0]?.key_ops).toEqual(["verify"]);
    expect(run(["--remove", first?.kid as string], promoted).map((key) => key.kid)).toEqual([next]);
  });

  it("--add without --standby makes the new key sign at once and the previous one verify", () => {
    const [first] = run([]);
    const added = run(["--add"], [first as Jwk]);
    expect(signerKid(added)).toEqual([added[1]?.kid]);
  });

  it("refuses bad options, an unknown kid, removing the signer and editing an unset or invalid set", () => {
    const set = run([]);
    const kid = set[0]?.kid as string;
    expect(errorOf(["--alg", "PS256"])).toBe(
      '--alg must be one of HS256, RS256, RS512, ES256, ES512, EdDSA, got "PS256"',
    );
    expect(errorOf(["--standby"])).toMatch(/--standby goes with --add/);
    expect(errorOf(["--add", "--promote", kid], set)).toMatch(/choose one of/);
    expect(errorOf(["--bogus"])).toMatch(/Unknown option/);
    expect(errorOf(["--promote", "nope"], set)).toBe('AUTHSVC_JWT_KEYS holds no key with kid "nope"');
    expect(errorOf(["--remove", kid], set)).toBe(`"${kid}" is the signing key: promote another key first`);
    expect(errorOf(["--add"])).toBe(
      "neither AUTHSVC_JWT_KEYS nor AUTHSVC_JWT_SECRET is set: nothing to add to",
    );
    expect(errorOf(["--promote", kid])).toBe("AUTHSVC_JWT_KEYS is not set: nothing to edit");
    expect(errorOf(["--add"], [{ ...set[0], alg: "XX" }])).toMatch(
      /^AUTHSVC_JWT_KEYS: key 1 .*alg "XX" is not supported/,
    );
  });

  describe("a new set and the JWT secret", () => {
    const secret = "a-jwt-secret-of-more-than-32-bytes-0123";
    const outcome = (args: string[], jwtSecret?: string) => {
      const result = keysCommand(args, {}, jwtSecret);
      if (!result.ok) throw new Error(result.error);
      return { keys: JSON.parse(result.output) as Jwk[], notes: result.notes };
    };

    it("keeps the secret as a verify-only HS256 key, so API keys signed with it keep verifying", () => {
      const { keys, notes } = outcome([], secret);
      expect(keys).toHaveLength(2);
      expect(signerKid(keys)).toEqual([keys[0]?.kid]);
      expect(keys[1]).toEqual({
        kty: "oct",
        kid: LEGACY_SECRET_KID,
        use: "sig",
        key_ops: ["verify"],
        alg: "HS256",
        k: Buffer.from(secret).toString("base64url"),
      });
      expect(notes).toEqual([expect.stringContaining(`--remove ${LEGACY_SECRET_KID}`)]);
    });

    it("says plainly that API keys must be re-made when it cannot keep the secret", () => {
      for (const [args, jwtSecret] of [
        [["--without-secret"], secret],
        [[], undefined],
        [[], "only-20-bytes-secret"],
      ] as const) {
        const { keys, notes } = outcome([...args], jwtSecret);
        expect(keys).toHaveLength(1);
        expect(notes).toEqual([expect.stringMatching(/stop verifying \(403 bad_jwt\).*authsvc api-keys/)]);
      }
    });

    it("stages the first move from the secret: the secret keeps signing beside a standby key, then the key is promoted", () => {
      const staged = outcome(["--add", "--standby"], secret).keys;
      expect(staged).toHaveLength(2);
      expect(signerKid(staged)).toEqual([LEGACY_SECRET_KID]);
      expect(staged[0]).toMatchObject({
        kty: "oct",
        alg: "HS256",
        k: Buffer.from(secret).toString("base64url"),
      });
      expect(staged[1]).toMatchObject({ alg: "ES256", key_ops: ["verify"] });
      const promoted = run(["--promote", staged[1]?.kid as string], staged);
      expect(signerKid(promoted)).toEqual([staged[1]?.kid]);
      expect(run(["--remove", LEGACY_SECRET_KID], promoted).map((key) => key.kid)).toEqual([staged[1]?.kid]);
      const tooShort = keysCommand(["--add", "--standby"], {}, "only-20-bytes-secret");
      expect(tooShort).toMatchObject({ ok: false, error: expect.stringMatching(/too short/) });
    });

    it("--without-secret is for a new set only", () => {
      const set = run([]);
      const refused = keysCommand(
        ["--add", "--without-secret"],
        { AUTHSVC_JWT_KEYS: JSON.stringify(set) },
        secret,
      );
      expect(refused).toEqual({ ok: false, error: "--without-secret applies to a new set (no option)" });
    });
  });
});
