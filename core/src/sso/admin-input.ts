import { failures } from "../failures.js";
import { err, ok, parseAbsoluteUrl, type Result } from "../kernel/index.js";
import type { SsoDeps } from "./deps.js";
import { type AttributeMapping, NAME_ID_FORMATS } from "./provider.js";

/** What an admin sends to create or update a provider (`POST`/`PUT /admin/sso/providers…`). */
export interface ProviderInput {
  readonly type?: string | undefined;
  readonly metadataXml?: string | undefined;
  readonly metadataUrl?: string | undefined;
  readonly domains?: readonly string[] | undefined;
  readonly attributeMapping?: AttributeMapping | undefined;
  readonly nameIdFormat?: string | undefined;
  readonly resourceId?: string | undefined;
  readonly disabled?: boolean | undefined;
}

/** Longest metadata document accepted (a federation's aggregate is not one provider's metadata). */
const MAX_METADATA = 512 * 1024;
const MAX_DOMAINS = 100;
/** A DNS name: labels of letters, digits and hyphens, at least two of them. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The domains, lower-cased, each a DNS name, without repeats. */
export function checkedDomains(domains: readonly string[]): Result<string[]> {
  if (domains.length > MAX_DOMAINS) return err(failures.ssoFieldInvalid(`At most ${MAX_DOMAINS} domains`));
  const out: string[] = [];
  for (const raw of domains) {
    const domain = raw.trim().toLowerCase();
    if (!DOMAIN.test(domain))
      return err(failures.ssoFieldInvalid(`Domain '${raw}' is not a valid domain name`));
    if (!out.includes(domain)) out.push(domain);
  }
  return ok(out);
}

/** `name_id_format`: "" (none in particular) or one of the four formats. */
export function checkedNameIdFormat(format: string | undefined): Result<string | null> {
  if (format === undefined || format === "") return ok(null);
  return (NAME_ID_FORMATS as readonly string[]).includes(format)
    ? ok(format)
    : err(failures.samlNameIdFormatInvalid());
}

/** An attribute mapping whose rules have the documented shape. */
export function checkedMapping(mapping: AttributeMapping | undefined): Result<AttributeMapping> {
  if (mapping === undefined) return ok({});
  for (const [claim, rule] of Object.entries(mapping.keys ?? {})) {
    const bad = (what: string) => err(failures.ssoFieldInvalid(`attribute_mapping.keys.${claim}: ${what}`));
    if (typeof rule !== "object" || rule === null) return bad("must be an object");
    if (rule.name !== undefined && typeof rule.name !== "string") return bad("name must be a string");
    if (
      rule.names !== undefined &&
      !(Array.isArray(rule.names) && rule.names.every((n) => typeof n === "string"))
    )
      return bad("names must be an array of strings");
    if (rule.array !== undefined && typeof rule.array !== "boolean") return bad("array must be a boolean");
  }
  return ok(mapping);
}

/**
 * The metadata a create or update brings: the XML given, or the XML fetched from `metadata_url`
 * (https only; the fetcher refuses private addresses). Null when neither is given (an update that keeps
 * its metadata). Its EntityID read and checked.
 */
export async function suppliedMetadata(
  deps: Pick<SsoDeps, "saml" | "samlMetadata">,
  input: ProviderInput,
): Promise<Result<{ xml: string; url: string | null; entityId: string } | null>> {
  if (input.metadataXml && input.metadataUrl) return err(failures.samlMetadataBoth());
  let xml = input.metadataXml ?? "";
  const url = input.metadataUrl ?? null;
  if (url) {
    const parsed = parseAbsoluteUrl(url);
    if (parsed === null || parsed.host === "") return err(failures.samlMetadataUrlInvalid());
    if (parsed.scheme !== "https") return err(failures.samlMetadataUrlNotHttps());
    const fetched = await deps.samlMetadata.fetch(url);
    if (!fetched.ok) return err(failures.samlMetadataFetchFailed(fetched.error));
    xml = fetched.value;
  }
  if (xml === "") return ok(null);
  if (xml.length > MAX_METADATA) return err(failures.samlMetadataInvalid("SAML Metadata is too large"));
  const metadata = deps.saml.readMetadata(xml);
  if (!metadata.ok) return err(failures.samlMetadataInvalid(metadata.error));
  return ok({ xml, url, entityId: metadata.value.entityId });
}
