import type { Repositories, Session, Store } from "@authsvc/core";
import { type Attributes, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { Instruments } from "./instruments.js";

/** What committed work tells the metrics: read from the calls core makes, counted after commit. */
type Committed = (instruments: Instruments) => void;

/** The outcome a repository call stands for, if it is one the metrics count. */
function committedEvent(
  repository: string,
  method: string,
  args: readonly unknown[],
  result: unknown,
): Committed | undefined {
  if (repository === "sessions" && method === "create") {
    const session = args[0] as Session;
    const methodName = session.amr.at(-1)?.method ?? "unknown";
    return (i) => i.signIns.add(1, { method: methodName });
  }
  // The password grant starts its session in one statement of its own; null when it was refused.
  if (repository === "sessions" && method === "grantPassword") {
    const session = (args[0] as { session: Session }).session;
    const methodName = session.amr.at(-1)?.method ?? "unknown";
    return result === null ? undefined : (i) => i.signIns.add(1, { method: methodName });
  }
  // The refresh grant commits in one statement of its own; its outcome says whether it rotated.
  if (repository === "sessions" && method === "grantRefresh") {
    const rotated = (result as { kind?: string } | undefined)?.kind === "rotated";
    return rotated ? (i) => i.refreshRotations.add(1) : undefined;
  }
  if (repository === "audit" && method === "record") {
    const action = (args[0] as { action: string }).action;
    if (action === "user_signedup") return (i) => i.signUps.add(1);
    if (action === "token_refreshed") return (i) => i.refreshRotations.add(1);
  }
  return undefined;
}

/** Work in flight on the pool: statements outside transactions plus open transactions. */
export class InFlight {
  count = 0;
}

interface Observation {
  readonly tracer: Tracer | undefined;
  readonly instruments: Instruments | undefined;
  readonly inFlight: InFlight;
  readonly dbSystem: string;
}

/** Runs `work` in a client span named `name` (when tracing), marking thrown errors. */
export async function inSpan<T>(
  tracer: Tracer | undefined,
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  if (tracer === undefined) return work();
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.recordException({ name: (error as Error)?.name ?? "Error" });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The repositories with a client span around each call (`db.system`, `db.operation` = the
 * repository operation; never the arguments, which hold token hashes and personal data). `onEvent`
 * receives the outcomes to count; `countInFlight` is false inside a transaction, whose connection is
 * already counted.
 */
function observeRepositories(
  repos: Repositories,
  o: Observation,
  onEvent: (event: Committed) => void,
  countInFlight: boolean,
): Repositories {
  const wrapped: Record<string, unknown> = {};
  for (const [name, repository] of Object.entries(repos)) {
    if (name === "transaction") continue;
    const methods: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(repository as Record<string, unknown>)) {
      if (typeof fn !== "function") {
        methods[method] = fn;
        continue;
      }
      const operation = `${name}.${method}`;
      const attributes = {
        "db.system": o.dbSystem,
        "db.system.name": o.dbSystem,
        "db.operation": operation,
        "db.operation.name": operation,
      };
      methods[method] = async (...args: unknown[]) => {
        if (countInFlight) o.inFlight.count++;
        try {
          const result = await inSpan(o.tracer, operation, attributes, () => fn.apply(repository, args));
          const event = o.instruments && committedEvent(name, method, args, result);
          if (event) onEvent(event);
          return result;
        } finally {
          if (countInFlight) o.inFlight.count--;
        }
      };
    }
    wrapped[name] = methods;
  }
  return wrapped as unknown as Repositories;
}

/**
 * The store, observed: a span per repository call and per transaction, the pool's work in flight,
 * and the sign-ins, sign-ups and refresh rotations core performed — counted only once their
 * transaction committed (a rolled-back sign-up is no sign-up).
 */
export function observeStore(store: Store, o: Observation): Store {
  const count = (event: Committed) => o.instruments && event(o.instruments);
  const direct = observeRepositories(store, o, count, true);
  const txAttributes = {
    "db.system": o.dbSystem,
    "db.system.name": o.dbSystem,
    "db.operation": "transaction",
  };
  return {
    ...direct,
    transaction: async <T>(fn: (repos: Repositories) => Promise<T>): Promise<T> => {
      o.inFlight.count++;
      const events: Committed[] = [];
      try {
        const result = await inSpan(o.tracer, "transaction", txAttributes, () =>
          store.transaction((repos) => fn(observeRepositories(repos, o, (e) => events.push(e), false))),
        );
        for (const event of events) count(event);
        return result;
      } finally {
        o.inFlight.count--;
      }
    },
  };
}
