import * as v from "valibot";
import { type Defaulted, parseDefault, type Variable } from "./variable.js";

type Vars = Readonly<Record<string, string | undefined>>;

/** The values of a group of variables: defaulted ones always have a value, the others may not. */
export type Values<D> = {
  readonly [K in keyof D]: D[K] extends Defaulted<infer T>
    ? T
    : D[K] extends Variable<infer T>
      ? T | undefined
      : never;
};

const MAX_ECHO = 80;

/** Quotes a bad value for a problem message; long values are cut so one line stays one line. */
function quote(raw: string): string {
  return JSON.stringify(raw.length > MAX_ECHO ? `${raw.slice(0, MAX_ECHO)}…` : raw);
}

/**
 * Reads variables from one set of values and collects every problem instead of stopping at the first,
 * so a user fixes their whole configuration in one round.
 */
export class Reader {
  readonly #vars: Vars;
  readonly problems: string[] = [];

  constructor(vars: Vars) {
    this.#vars = vars;
  }

  /**
   * The name and value that supply a variable: its own name first, then its aliases. An empty value
   * counts as unset, because compose files and CI templates render missing values as "".
   */
  source(variable: Variable<unknown>): { name: string; raw: string } | undefined {
    for (const name of [variable.name, ...variable.aliases]) {
      const raw = this.#vars[name];
      if (raw !== undefined && raw.trim() !== "") return { name, raw };
    }
    return undefined;
  }

  /** The set (non-empty) variables whose names start with `prefix`, for families named by pattern. */
  withPrefix(prefix: string): { name: string; raw: string }[] {
    return Object.entries(this.#vars)
      .filter(([name, raw]) => name.startsWith(prefix) && raw !== undefined && raw.trim() !== "")
      .map(([name, raw]) => ({ name, raw: raw as string }));
  }

  isSet(variable: Variable<unknown>): boolean {
    return this.source(variable) !== undefined;
  }

  /** The parsed value, else the default. An invalid value records a problem and yields the default. */
  get<T>(variable: Defaulted<T>): T;
  get<T>(variable: Variable<T>): T | undefined;
  get<T>(variable: Variable<T>): T | undefined {
    const source = this.source(variable);
    if (source !== undefined) {
      const result = v.safeParse(variable.kind.schema, source.raw, { abortPipeEarly: true });
      if (result.success) {
        if (variable.unbuilt !== undefined && result.output === true)
          this.refuseUnbuilt(source.name, variable.unbuilt);
        return result.output;
      }
      const expected = result.issues[0].message;
      // Never echo a secret, not even a malformed one: problems end up in logs and CI output.
      this.problem(source.name, variable.secret ? expected : `${expected}, got ${quote(source.raw)}`);
    }
    return variable.default === undefined
      ? undefined
      : parseDefault(variable.name, variable.kind, variable.default);
  }

  /** Reads a whole group, keeping its keys. */
  getAll<D extends Readonly<Record<string, Variable<unknown>>>>(group: D): Values<D> {
    // Object.fromEntries loses the per-key types that `Values<D>` restores; `get` produced each one.
    return Object.fromEntries(
      Object.entries(group).map(([key, variable]) => [key, this.get(variable)]),
    ) as Values<D>;
  }

  /** Records that a required variable is missing, naming the setting that made it required. */
  missing(variable: Variable<unknown>): void {
    const condition = variable.required.startsWith("when ") ? ` ${variable.required}` : "";
    const also = variable.aliases.length > 0 ? ` (or set ${variable.aliases.join(" or ")})` : "";
    this.problem(variable.name, `required${condition}${also}`);
  }

  /** `missing` when `condition` holds and the variable is unset. */
  requireIf(condition: boolean, variable: Variable<unknown>): void {
    if (condition && !this.isSet(variable)) this.missing(variable);
  }

  /** A switch that would turn on a feature nothing implements: starting anyway would mislead. */
  refuseUnbuilt(name: string, feature: string): void {
    this.problem(
      name,
      `${feature} is not built yet, so this switch cannot be turned on; unset it or set it to false`,
    );
  }

  problem(name: string, message: string): void {
    this.problems.push(`${name}: ${message}`);
  }
}
