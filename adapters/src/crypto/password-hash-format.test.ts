import { describe, expect, it } from "vitest";
import { passwordHashRefusal, readableHash } from "./password-hash-format.js";

const SALT_AND_DIGEST = "$c29tZXNhbHRzb21lc2FsdA$3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w3q2+7w";
const BCRYPT_TAIL = "$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy";

describe("passwordHashRefusal", () => {
  it("names the limit a bcrypt or argon2 hash goes beyond, never the hash", () => {
    const hostile = `$argon2id$v=19$m=1048576,t=20,p=16${SALT_AND_DIGEST}`;
    const reason = passwordHashRefusal(hostile);
    expect(reason).toBe(
      "its password hash costs more than authsvc computes (argon2 memory above 262144 KiB)",
    );
    expect(passwordHashRefusal(`$2a$15${BCRYPT_TAIL}`)).toBe(
      "its password hash costs more than authsvc computes (bcrypt cost above 14)",
    );
    expect(passwordHashRefusal(`$argon2i$v=19$m=262144,t=5,p=1${SALT_AND_DIGEST}`)).toContain(
      "argon2 memory × passes above 1048576 KiB",
    );
  });

  it("copies hashes within the limits, and text of other kinds (it never verifies, and costs nothing)", () => {
    expect(passwordHashRefusal(`$2a$10${BCRYPT_TAIL}`)).toBeNull();
    expect(readableHash(`$2a$10${BCRYPT_TAIL}`)).toEqual({ kind: "bcrypt", cost: 10 });
    expect(passwordHashRefusal(`$argon2id$v=19$m=65536,t=3,p=4${SALT_AND_DIGEST}`)).toBeNull();
    expect(passwordHashRefusal("$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=a2V5$c2FsdA==$aGFzaA==")).toBeNull();
    expect(passwordHashRefusal("")).toBeNull();
  });
});
