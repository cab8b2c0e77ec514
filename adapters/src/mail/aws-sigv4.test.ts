import { describe, expect, it } from "vitest";
import { signV4 } from "./aws-sigv4.js";

describe("signV4", () => {
  it("signs AWS's documented example (S3 GET Object with a Range header) to its published signature", () => {
    const headers = signV4({
      method: "GET",
      url: "https://examplebucket.s3.amazonaws.com/test.txt",
      headers: {
        Range: "bytes=0-9",
        "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      },
      body: "",
      service: "s3",
      region: "us-east-1",
      credentials: {
        accessKeyId: "AKIAIOSFODNN7EXAMPLE",
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      },
      now: new Date("2013-05-24T00:00:00Z"),
    });
    expect(headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
    expect(headers["x-amz-date"]).toBe("20130524T000000Z");
    expect(headers.host).toBe("examplebucket.s3.amazonaws.com");
  });

  it("sends and signs the session token of temporary credentials", () => {
    const headers = signV4({
      method: "POST",
      url: "https://email.eu-west-1.amazonaws.com/v2/email/outbound-emails",
      headers: { "content-type": "application/json" },
      body: "{}",
      service: "ses",
      region: "eu-west-1",
      credentials: { accessKeyId: "AKID", secretAccessKey: "secret", sessionToken: "token-123" },
      now: new Date("2026-01-02T03:04:05Z"),
    });
    expect(headers["x-amz-security-token"]).toBe("token-123");
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/20260102\/eu-west-1\/ses\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
  });
});
