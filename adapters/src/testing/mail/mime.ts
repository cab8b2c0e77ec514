/**
 * Just enough MIME to read what nodemailer sends: folded headers, RFC 2047 encoded words, multipart
 * bodies, quoted-printable and base64 parts, UTF-8 throughout.
 */

export interface ParsedMessage {
  /** Lower-cased names; values unfolded and decoded. The first occurrence of a repeated header wins. */
  readonly headers: Readonly<Record<string, string>>;
  /** The decoded text/plain part ("" when absent). */
  readonly text: string;
  /** The decoded text/html part ("" when absent). */
  readonly html: string;
}

const ENCODED_WORD = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;

function decodeWords(value: string): string {
  // Whitespace between two adjacent encoded words is not part of the text.
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(ENCODED_WORD, (_all, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const unfolded = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < unfolded.length; i++) {
    const hex = unfolded.slice(i + 1, i + 3);
    if (unfolded[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(unfolded[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function split(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? "" : raw.slice(end).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] ??= decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function param(header: string | undefined, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}="?([^";]+)"?`, "i").exec(header ?? "");
  return match?.[1];
}

function collect(raw: string, found: { text: string; html: string }): void {
  const { headers, body } = split(raw);
  const type = (headers["content-type"] ?? "text/plain").toLowerCase();
  const boundary = param(headers["content-type"], "boundary");
  if (type.startsWith("multipart/") && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith("--")) break;
      collect(part.replace(/^\r?\n/, ""), found);
    }
    return;
  }
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const decoded =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
        : body;
  // Lines as a mail reader shows them: LF endings, without the CRLF that precedes the next boundary.
  const content = decoded.replace(/\r\n/g, "\n").replace(/\n$/, "");
  if (type.startsWith("text/html")) found.html ||= content;
  else if (type.startsWith("text/plain")) found.text ||= content;
}

/** Parses one raw message as received over SMTP. */
export function parseMessage(raw: string): ParsedMessage {
  const found = { text: "", html: "" };
  collect(raw, found);
  return { headers: split(raw).headers, ...found };
}
