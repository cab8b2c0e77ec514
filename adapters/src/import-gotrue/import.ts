import { auditLog } from "./audit.js";
import { factors } from "./factors.js";
import { identities } from "./identities.js";
import { refreshTokens } from "./refresh-tokens.js";
import { runStep, type StepProgress } from "./run-step.js";
import { sessionTokens } from "./session-tokens.js";
import { sessions } from "./sessions.js";
import { type CopyCounts, type ImportContext, ImportFailure, type Rejection } from "./step.js";
import { users } from "./users.js";

export interface ImportOptions {
  /** Also copy `audit_log_entries`. */
  readonly withAudit: boolean;
  /** Rows per batch (one transaction each). */
  readonly batchSize: number;
  readonly onProgress?: (progress: StepProgress) => void;
}

export interface StepSummary {
  readonly name: string;
  readonly counts: CopyCounts;
  /** How long the step took. */
  readonly seconds: number;
  /** Rows of the reference left out by rule, and why. */
  readonly leftOut?: { readonly count: number; readonly why: string };
}

export interface ImportSummary {
  readonly steps: readonly StepSummary[];
  /** The rows the target refused, at most {@link MAX_REJECTIONS_LISTED} of them. */
  readonly rejections: readonly Rejection[];
  readonly rejectedTotal: number;
  readonly seconds: number;
}

export const MAX_REJECTIONS_LISTED = 100;

// What a database laid out by the reference's migrations has and this import reads.
const SOURCE_TABLES = ["users", "identities", "mfa_factors", "mfa_amr_claims", "sessions", "refresh_tokens"];

/**
 * Copies a reference (GoTrue) database into authsvc's: users, identities, factors, sessions and their
 * refresh tokens, then the audit log when asked, in that order (each after what it refers to). Every
 * write is keyed by the reference's id and skips rows already there unless the reference's copy is
 * newer, so a second run changes nothing and an interrupted one is resumed by running it again.
 */
export async function importGotrue(ctx: ImportContext, options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  await checkSource(ctx);
  const steps = [users, identities, factors, sessions, refreshTokens, sessionTokens];
  if (options.withAudit) steps.push(auditLog);
  const summaries: StepSummary[] = [];
  const rejections: Rejection[] = [];
  let rejectedTotal = 0;
  for (const step of steps) {
    const stepStarted = performance.now();
    const result = await runStep(ctx, step, { batchSize: options.batchSize, ...pick(options) });
    const leftOut = step.leftOut ? await step.leftOut(ctx) : undefined;
    summaries.push({
      name: step.name,
      counts: result.counts,
      seconds: (performance.now() - stepStarted) / 1000,
      ...(leftOut && leftOut.count > 0 ? { leftOut } : {}),
    });
    rejectedTotal += result.rejections.length;
    rejections.push(...result.rejections.slice(0, MAX_REJECTIONS_LISTED - rejections.length));
  }
  return { steps: summaries, rejections, rejectedTotal, seconds: (performance.now() - started) / 1000 };
}

const pick = (options: ImportOptions) => (options.onProgress ? { onProgress: options.onProgress } : {});

async function checkSource(ctx: ImportContext): Promise<void> {
  const found = await ctx.source<{ table: string }[]>`
    select table_name as table from information_schema.tables
    where table_schema = ${ctx.sourceSchema} and table_name in ${ctx.source(SOURCE_TABLES)}
  `;
  const missing = SOURCE_TABLES.filter((t) => !found.some((f) => f.table === t));
  if (missing.length > 0) {
    throw new ImportFailure(
      `the source has no ${missing.join(", ")} in schema ${ctx.sourceSchema}: is it a database the reference migrated (and is --schema right)?`,
    );
  }
  // Before 2023 the reference's sessions had no oauth_client_id nor its token algorithm columns;
  // this import reads a database migrated to a current release.
  const [columns] = await ctx.source<{ n: string }[]>`
    select count(*) as n from information_schema.columns
    where table_schema = ${ctx.sourceSchema} and table_name = 'sessions'
      and column_name in ('oauth_client_id', 'refresh_token_hmac_key', 'refresh_token_counter', 'refreshed_at')
  `;
  if (Number(columns?.n) !== 4) {
    throw new ImportFailure(
      `the source's ${ctx.sourceSchema}.sessions lacks columns of the reference's current migrations: run the reference's migrations on it first`,
    );
  }
}
