/** What `authsvc import-gotrue` was asked to do. */
export interface ImportArgs {
  readonly from: string;
  readonly schema: string;
  readonly withAudit: boolean;
  readonly batchSize: number;
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/** The arguments, or the sentence that refuses them. */
export function parseImportArgs(
  args: readonly string[],
): { ok: true; value: ImportArgs } | { ok: false; error: string } {
  let from: string | undefined;
  let schema = "auth";
  let withAudit = false;
  let batchSize = 1000;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [name, inline] =
      arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => inline ?? args[++i];
    switch (name) {
      case "--from": {
        from = value();
        if (!from) return { ok: false, error: "--from needs a database URL" };
        if (!/^postgres(ql)?:\/\//.test(from))
          return { ok: false, error: "--from: expected a postgres:// URL" };
        break;
      }
      case "--schema": {
        const given = value();
        if (!given || !SCHEMA.test(given))
          return { ok: false, error: "--schema: expected a schema name like auth" };
        schema = given;
        break;
      }
      case "--with-audit":
        if (inline !== undefined) return { ok: false, error: "--with-audit takes no value" };
        withAudit = true;
        break;
      case "--batch-size": {
        const given = Number(value());
        if (!Number.isInteger(given) || given < 1 || given > 5000) {
          return { ok: false, error: "--batch-size: expected a whole number from 1 to 5000" };
        }
        batchSize = given;
        break;
      }
      default:
        return { ok: false, error: `unknown option ${name}` };
    }
  }
  if (from === undefined) return { ok: false, error: "--from is required" };
  return { ok: true, value: { from, schema, withAudit, batchSize } };
}
