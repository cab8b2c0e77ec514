import { createHash } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the fake received it: everything that left the client. */
export interface RangeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** A loopback stand-in for the k-anonymity range API of Have I Been Pwned. */
export interface HibpRangeFake {
  /** The base URL to configure (`PASSWORD_HIBP_URL`). */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: RangeRequest[];
  /** `answer`: as the real API; `fail`: 503; `hang`: no answer at all. */
  mode: "answer" | "fail" | "hang";
  /** Holds every answer until `release()` (to see concurrent checks arrive). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** SHA-1 of `password`, upper-case hex, as the API keys its ranges. */
export function sha1Hex(password: string): string {
  return createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
}

/**
 * Speaks the range API: `GET /range/<5 hex>` answers the `SUFFIX:COUNT` lines of the leaked
 * passwords in that range (`leaked`), plus, when asked with `Add-Padding: true`, padding lines
 * counting zero — among them those of `padding` (so a client must read the count, not just the
 * suffix); anything else is 400 or 404, as the real one.
 */
export async function startHibpRangeFake(
  leaked: readonly string[],
  padding: readonly string[] = [],
): Promise<HibpRangeFake> {
  const hashes = leaked.map(sha1Hex);
  const paddingHashes = padding.map(sha1Hex);
  const requests: RangeRequest[] = [];
  let held: (() => void)[] | null = null;
  const answer = (res: ServerResponse, prefix: string, padded: boolean) => {
    if (fake.mode === "fail") {
      res.writeHead(503).end("unavailable");
      return;
    }
    const lines = hashes.filter((h) => h.startsWith(prefix)).map((h) => `${h.slice(5)}:${h.length * 7}`);
    if (padded) {
      for (const h of paddingHashes.filter((h) => h.startsWith(prefix))) lines.push(`${h.slice(5)}:0`);
      for (let i = 0; i < 3; i++) lines.push(`${sha1Hex(`padding ${prefix} ${i}`).slice(5)}:0`);
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(lines.join("\r\n"));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "";
      requests.push({
        method: req.method ?? "",
        path,
        headers: { ...req.headers },
        body: Buffer.concat(chunks).toString(),
      });
      if (fake.mode === "hang") return;
      const match = /^\/range\/([0-9A-Fa-f]{5})$/.exec(path);
      if (req.method !== "GET" || match === null) {
        res.writeHead(match === null ? 404 : 400).end();
        return;
      }
      const prefix = (match[1] as string).toUpperCase();
      const padded = req.headers["add-padding"] === "true";
      if (held !== null) held.push(() => answer(res, prefix, padded));
      else answer(res, prefix, padded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fake: HibpRangeFake = {
    url: `http://127.0.0.1:${port}`,
    requests,
    mode: "answer",
    hold: () => {
      held ??= [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const send of waiting) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
