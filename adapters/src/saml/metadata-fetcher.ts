import { lookup } from "node:dns";
import { isIP } from "node:net";
import type { Result } from "@authsvc/core/kernel";
import type { MetadataFetcher } from "@authsvc/core/sso";
import { addressRefusal } from "../net/address-policy.js";

export interface MetadataFetcherOptions {
  /** Let the fetch reach loopback and private addresses (`SAML_METADATA_ALLOW_PRIVATE_ADDRESSES`). */
  readonly allowPrivateAddresses: boolean;
  readonly timeoutMs?: number;
  /** The largest document read (bytes). */
  readonly maxBytes?: number;
}

const fail = (reason: string): Result<string, string> => ({ ok: false, error: reason });

/**
 * Fetches identity-provider metadata over https (`Accept: application/xml`), no redirects followed,
 * within a time and size limit. The address the name resolves to is checked in the connection's own
 * lookup, so a name that resolves to a public address when checked and a private one when connecting
 * (DNS rebinding) still cannot reach inside.
 */
export function samlMetadataFetcher(options: MetadataFetcherOptions): MetadataFetcher {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 512 * 1024;
  // The same address policy as every other call to a server named at runtime (`net/`).
  const allowed = (address: string) => options.allowPrivateAddresses || addressRefusal(address) === null;
  return {
    async fetch(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return fail("metadata_url is not a valid URL");
      }
      if (parsed.protocol !== "https:") return fail("metadata_url is not a HTTPS URL");
      const host = parsed.hostname.replace(/^\[|\]$/g, "");
      if (isIP(host) !== 0 && !allowed(host)) return fail(`'${url}' is not a public address`);
      const { Agent, request } = await import("undici");
      const agent = new Agent({
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connect: {
          timeout: timeoutMs,
          lookup: (hostname, opts, callback) =>
            lookup(hostname, { ...opts, all: false }, (error, address, family) => {
              if (error) return callback(error, "", 0);
              if (!allowed(address)) return callback(new Error(`${hostname} is not a public address`), "", 0);
              callback(null, address, family);
            }),
        },
      });
      try {
        const response = await request(url, {
          dispatcher: agent,
          headers: { accept: "application/xml" },
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (response.statusCode !== 200) {
          await response.body.dump();
          return fail(`HTTP ${response.statusCode} error fetching SAML Metadata from URL '${url}'`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            response.body.destroy();
            return fail("SAML Metadata is too large");
          }
          chunks.push(chunk as Buffer);
        }
        return { ok: true, value: Buffer.concat(chunks).toString("utf8") };
      } catch (error) {
        const reason =
          error instanceof Error
            ? error.cause instanceof Error
              ? error.cause.message
              : error.message
            : "failed";
        return fail(`could not fetch '${url}': ${reason}`);
      } finally {
        void agent.close();
      }
    },
  };
}
