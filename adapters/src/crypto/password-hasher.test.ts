import { type Algorithm, hash as argon2Hash } from "@node-rs/argon2";
import { hash as bcryptHash } from "bcryptjs";
import { describe, expect, it } from "vitest";
import { argon2Hasher } from "./password-hasher.js";

const ARGON2I = 1 as Algorithm;
const ARGON2ID = 2 as Algorithm;

describe("argon2Hasher", () => {
  const hasher = argon2Hasher();

  it("hashes with argon2id m=19456 KiB, t=2, p=1 and verifies the password", async () => {
    const hash = await hasher.hash("correct horse");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(hash, "correct horse")).toBe(true);
    expect(await hasher.verify(hash, "correct horsE")).toBe(false);
    expect(hasher.needsRehash(hash)).toBe(false);
    expect(hasher.isSupportedHash(hash)).toBe(true);
  });

  it("salts: the same password hashes differently each time", async () => {
    expect(await hasher.hash("pw")).not.toBe(await hasher.hash("pw"));
  });

  it("never truncates: a 1024-character password differs from its 1023-character prefix", async () => {
    const long = `${"€".repeat(1023)}x`;
    const hash = await hasher.hash(long);
    expect(await hasher.verify(hash, long)).toBe(true);
    expect(await hasher.verify(hash, long.slice(0, 1023))).toBe(false);
  });

  it("verifies imported bcrypt hashes ($2a$, $2b$, $2y$) and asks for a rehash", async () => {
    const b = await bcryptHash("imported pw", 4);
    expect(b.startsWith("$2b$04$")).toBe(true);
    for (const variant of ["$2a$", "$2b$", "$2y$"]) {
      const hash = variant + b.slice(4);
      expect(hasher.isSupportedHash(hash)).toBe(true);
      expect(await hasher.verify(hash, "imported pw")).toBe(true);
      expect(await hasher.verify(hash, "imported pW")).toBe(false);
      expect(hasher.needsRehash(hash)).toBe(true);
    }
  });

  it("refuses bcrypt hashes with an absurd cost", async () => {
    const b = await bcryptHash("pw", 4);
    const costly = `$2b$25$${b.slice(7)}`;
    expect(hasher.isSupportedHash(costly)).toBe(false);
    expect(await hasher.verify(costly, "pw")).toBe(false);
  });

  it("verifies imported argon2i hashes and asks for a rehash", async () => {
    const hash = await argon2Hash("legacy", { algorithm: ARGON2I, memoryCost: 4096, timeCost: 3 });
    expect(hash.startsWith("$argon2i$v=19$m=4096,t=3,p=1$")).toBe(true);
    expect(hasher.isSupportedHash(hash)).toBe(true);
    expect(await hasher.verify(hash, "legacy")).toBe(true);
    expect(await hasher.verify(hash, "Legacy")).toBe(false);
    expect(hasher.needsRehash(hash)).toBe(true);
  });

  it("asks for a rehash of argon2id hashes with other parameters", async () => {
    const weaker = await argon2Hash("pw", { algorithm: ARGON2ID, memoryCost: 8192, timeCost: 2 });
    expect(await hasher.verify(weaker, "pw")).toBe(true);
    expect(hasher.needsRehash(weaker)).toBe(true);
    const custom = argon2Hasher({ memoryCost: 8192, timeCost: 2 });
    expect(custom.needsRehash(weaker)).toBe(false);
    expect(custom.needsRehash(await hasher.hash("pw"))).toBe(true);
  });

  it("refuses argon2 hashes with absurd parameters", async () => {
    const real = await argon2Hash("pw", { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1 });
    const tail = real.slice(real.indexOf("$", "$argon2id$v=19$".length));
    for (const params of ["m=1048577,t=1,p=1", "m=1024,t=21,p=1", "m=1024,t=1,p=17", "m=1024,t=0,p=1"]) {
      const hash = `$argon2id$v=19$${params}${tail}`;
      expect(hasher.isSupportedHash(hash)).toBe(false);
      expect(await hasher.verify(hash, "pw")).toBe(false);
      expect(hasher.needsRehash(hash)).toBe(true);
    }
  });

  it("returns false, without throwing, for malformed and unsupported hashes", async () => {
    const real = await hasher.hash("pw");
    const malformed = [
      "",
      "plain",
      "pw",
      "$2b$10$short",
      real.replace("argon2id", "argon2d"),
      real.replace("v=19", "v=16"),
      real.slice(0, -10),
      real.replace("$argon2id$v=19$m=19456,t=2,p=1$", "$argon2id$v=19$m=19456,t=2,p=1,keyid=k$"),
      `$argon2id$v=19$m=19456,t=2,p=1$!!!!!!!!!!!!$${real.split("$")[5]}`,
      `$scrypt$ln=16,r=8,p=1$${real.split("$").slice(4).join("$")}`,
    ];
    for (const hash of malformed) {
      expect(await hasher.verify(hash, "pw")).toBe(false);
      expect(hasher.isSupportedHash(hash)).toBe(false);
      expect(hasher.needsRehash(hash)).toBe(true);
    }
  });

  it("verifyDummy resolves whatever the password", async () => {
    await expect(hasher.verifyDummy("anything")).resolves.toBeUndefined();
    await expect(hasher.verifyDummy("")).resolves.toBeUndefined();
  });

  it("does not block the event loop while hashing or verifying", async () => {
    const events: string[] = [];
    // A synchronous hash would resolve before the immediate had a chance to run.
    const hashing = hasher.hash("pw").then((hash) => {
      events.push("hashed");
      return hash;
    });
    setImmediate(() => events.push("immediate"));
    const hash = await hashing;
    expect(events).toEqual(["immediate", "hashed"]);

    events.length = 0;
    const verifying = hasher.verify(hash, "pw").then(() => events.push("verified"));
    setImmediate(() => events.push("immediate"));
    await verifying;
    expect(events).toEqual(["immediate", "verified"]);
  });

  it("rejects options it could not verify back", () => {
    expect(() => argon2Hasher({ timeCost: 0 })).toThrow(RangeError);
    expect(() => argon2Hasher({ parallelism: 17 })).toThrow(RangeError);
    expect(() => argon2Hasher({ memoryCost: 4 })).toThrow(RangeError);
  });
});
