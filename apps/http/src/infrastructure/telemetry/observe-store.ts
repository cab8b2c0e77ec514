import { type Repositories, type Store, type StoreTraits, storeTraits } from "@authsvc/core";
import type { CommittedOutcome, MethodTraits } from "@authsvc/core/kernel";
import { type Attributes, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { Instruments } from "./instruments.js";

/** What committed work tells the metrics: what the store declares its calls stand for, counted after commit. */
type Committed = (instruments: Instruments) => void;

/** The count an outcome adds to. */
function counted(outcome: CommittedOutcome): Committed {
  switch (outcome.kind) {
    case "signed_in":
      return (i) => i.signIns.add(1, { method: outcome.method });
    case "signed_up":
      return (i) => i.signUps.add(1);
    case "refresh_rotated":
      return (i) => i.refreshRotations.add(1);
    case "account_locked":
      return (i) => i.accountLockouts.add(1);
  }
}

type Outcome = NonNullable<MethodTraits<unknown[], unknown>["outcome"]>;

/** The declared outcome of each method that has one, by repository and method (read once). */
function outcomesOf(traits: StoreTraits): ReadonlyMap<string, ReadonlyMap<string, Outcome>> {
  const byRepository = new Map<string, Map<string, Outcome>>();
  for (const [repository, methods] of Object.entries(
    traits as Record<string, Record<string, MethodTraits<unknown[], unknown>>>,
  )) {
    const outcomes = new Map<string, Outcome>();
    for (const [method, t] of Object.entries(methods)) if (t.outcome) outcomes.set(method, t.outcome);
    if (outcomes.size > 0) byRepository.set(repository, outcomes);
  }
  return byRepository;
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
  /** What the store's calls stand for (`storeTraits` unless a test declares its own). */
  readonly traits?: StoreTraits;
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
function observeRepositories<R extends object>(
  repos: R,
  o: Observation,
  outcomes: ReadonlyMap<string, ReadonlyMap<string, Outcome>>,
  onEvent: (event: Committed) => void,
  countInFlight: boolean,
): R {
  const wrapped: Record<string, unknown> = {};
  for (const [name, repository] of Object.entries(repos)) {
    const declared = outcomes.get(name);
    const methods: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(repository as Record<string, unknown>)) {
      if (typeof fn !== "function") {
        methods[method] = fn;
        continue;
      }
      const outcome = declared?.get(method);
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
          const committed = o.instruments && outcome?.(args, result);
          if (committed) onEvent(counted(committed));
          return result;
        } finally {
          if (countInFlight) o.inFlight.count--;
        }
      };
    }
    wrapped[name] = methods;
  }
  return wrapped as R;
}

/**
 * The store, observed: a span per repository call and per transaction, the pool's work in flight,
 * and the sign-ins, sign-ups and refresh rotations core performed — counted only once their
 * transaction committed (a rolled-back sign-up is no sign-up).
 */
export function observeStore(store: Store, o: Observation): Store {
  const count = (event: Committed) => o.instruments && event(o.instruments);
  const outcomes = outcomesOf(o.traits ?? storeTraits);
  const { transaction: _, ...repositories } = store;
  const direct = observeRepositories(repositories, o, outcomes, count, true);
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
          store.transaction((repos) =>
            fn(observeRepositories(repos, o, outcomes, (e) => events.push(e), false)),
          ),
        );
        for (const event of events) count(event);
        return result;
      } finally {
        o.inFlight.count--;
      }
    },
  };
}
