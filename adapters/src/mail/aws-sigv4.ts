import { createHash, createHmac } from "node:crypto";

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** For temporary credentials (STS): sent as `x-amz-security-token`. */
  readonly sessionToken?: string | undefined;
}

export interface SigV4Request {
  readonly method: string;
  /** Absolute URL; its query string, if any, is signed in canonical order. */
  readonly url: string;
  /** Headers to sign besides `host` and `x-amz-date` (lower- or mixed-case names). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly service: string;
  readonly region: string;
  readonly credentials: AwsCredentials;
  readonly now: Date;
}

const sha256Hex = (data: string): string => createHash("sha256").update(data, "utf8").digest("hex");
const hmac = (key: Buffer | string, data: string): Buffer =>
  createHmac("sha256", key).update(data, "utf8").digest();

/** RFC 3986 encoding as SigV4 wants it (`encodeURIComponent` leaves `!'()*` alone). */
const rfc3986 = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `20130524T000000Z`. */
export const amzDate = (now: Date): string =>
  now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([key, value]) => [rfc3986(key), rfc3986(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
}

/**
 * Signs a request with AWS Signature Version 4 (written with node:crypto: the AWS SDK would weigh
 * more than the rest of the mail code together). Returns every header to send: the given ones,
 * `host`, `x-amz-date`, `x-amz-security-token` with temporary credentials, and `authorization`.
 * Paths are used as given, which suits the paths of the APIs signed here (no characters to escape).
 */
export function signV4(req: SigV4Request): Record<string, string> {
  const url = new URL(req.url);
  const date = amzDate(req.now);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name.toLowerCase()] = value;
  headers.host = url.host;
  headers["x-amz-date"] = date;
  if (req.credentials.sessionToken) headers["x-amz-security-token"] = req.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names
    .map((name) => `${name}:${headers[name]?.trim().replace(/\s+/g, " ")}\n`)
    .join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [
    req.method.toUpperCase(),
    url.pathname || "/",
    canonicalQuery(url),
    canonicalHeaders,
    signedHeaders,
    sha256Hex(req.body),
  ].join("\n");
  const scope = `${day}/${req.region}/${req.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", date, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(
    hmac(hmac(hmac(`AWS4${req.credentials.secretAccessKey}`, day), req.region), req.service),
    "aws4_request",
  );
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${req.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
