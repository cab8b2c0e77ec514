import { type Algorithm, hash as argon2Hash } from "@node-rs/argon2";
import { hash as nativeBcryptHash } from "@node-rs/bcrypt";
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

  it("refuses bcrypt hashes above cost 14, without computing them", async () => {
    const b = await bcryptHash("pw", 4);
    for (const cost of ["04", "10", "12", "14"]) {
      expect(hasher.isSupportedHash(`$2b$${cost}$${b.slice(7)}`)).toBe(true);
    }
    for (const cost of ["15", "16", "25", "31"]) {
      const costly = `$2b$${cost}$${b.slice(7)}`;
      expect(hasher.isSupportedHash(costly)).toBe(false);
      expect(await hasher.verify(costly, "pw")).toBe(false);
      expect(hasher.needsRehash(costly)).toBe(true);
    }
  });

  it("verifies bcrypt off the event loop: the loop idles while a cost-12 verification runs", async () => {
    const hash = await nativeBcryptHash("imported pw", { cost: 12 });
    const before = performance.eventLoopUtilization();
    let ticks = 0;
    let verified = false;
    const tick = () => {
      ticks += 1;
      if (!verified) setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    expect(await hasher.verify(hash, "imported pw")).toBe(true);
    verified = true;
    const { utilization } = performance.eventLoopUtilization(before);
    // Computed on the main thread (even in slices) the loop would be busy nearly all the time.
    expect(utilization).toBeLessThan(0.5);
    expect(ticks).toBeGreaterThan(0);
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
    for (const params of [
      // The hash that held 4.2 GB and every sign-in for 76 s.
      "m=1048576,t=20,p=16",
      "m=262145,t=1,p=1",
      "m=1024,t=11,p=1",
      "m=1024,t=1,p=17",
      "m=1024,t=0,p=1",
      // Within each limit alone, but more than 1 GiB·pass of work.
      "m=262144,t=5,p=1",
      "m=131072,t=9,p=4",
    ]) {
      const hash = `$argon2id$v=19$${params}${tail}`;
      expect(hasher.isSupportedHash(hash)).toBe(false);
      expect(await hasher.verify(hash, "pw")).toBe(false);
      expect(hasher.needsRehash(hash)).toBe(true);
    }
  });

  it("accepts argon2 parameters of the common libraries and RFC 9106 within the limits", async () => {
    const real = await argon2Hash("pw", { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1 });
    const tail = real.slice(real.indexOf("$", "$argon2id$v=19$".length));
    for (const params of [
      "m=262144,t=4,p=1", // libsodium's moderate is t=3
      "m=65536,t=3,p=4", // RFC 9106's second recommendation, argon2-cffi, Bitwarden
      "m=65536,t=4,p=1", // PHP
      "m=102400,t=2,p=8", // Django
      "m=7168,t=5,p=1", // OWASP, Keycloak
      "m=19456,t=2,p=1",
      "m=8192,t=10,p=16",
    ]) {
      expect(hasher.isSupportedHash(`$argon2id$v=19$${params}${tail}`)).toBe(true);
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
    expect(() => argon2Hasher({ memoryCost: 262144, timeCost: 5 })).toThrow(RangeError);
  });
});
