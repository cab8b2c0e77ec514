import * as v from "valibot";
import type { Kind } from "./kinds.js";

export const PREFIX = "AUTHSVC_";

/** How a variable is required: always, outside embedded mode, or when another setting asks for it. */
export type Requirement = "yes" | "no" | "unless embedded" | `when ${string}`;

/** The documented face of a variable: what `configVariables` lists and docs/configuration.md shows. */
export interface ConfigVariable {
  /** Full name with the `AUTHSVC_` prefix. */
  readonly name: string;
  /** Other names read for the same setting, in order of precedence, after `name`. */
  readonly aliases: readonly string[];
  readonly group: string;
  readonly type: string;
  /** The value used when unset, as a user would write it. */
  readonly default: string | undefined;
  /** Describes a default that depends on other settings (then `default` is undefined). */
  readonly computedDefault: string | undefined;
  readonly required: Requirement;
  readonly secret: boolean;
  /** The feature a `true` value would turn on, when this server does not implement it yet. */
  readonly unbuilt: string | undefined;
  readonly description: string;
}

/** A variable with its parser; a default is parsed by `kind` just like a user value. */
export interface Variable<T> extends ConfigVariable {
  readonly kind: Kind<T>;
}
export type Defaulted<T> = Variable<T> & { readonly default: string };

interface Spec<T> {
  /** Name without the prefix. */
  readonly key: string;
  readonly aliases?: readonly string[];
  readonly kind: Kind<T>;
  readonly required?: Requirement;
  /** Describes a default computed by the loader. */
  readonly computedDefault?: string;
  /**
   * Names a feature that is not built yet: `true` is refused at start, so that a switch never
   * seems to protect or enable what nothing implements. Only for booleans that default to false.
   */
  readonly unbuilt?: string;
  readonly description: string;
}

// Secrets are recognised by name, so a new credential variable cannot forget to be one.
const SECRET_NAME =
  /(?:SECRET|JWT_KEYS|_PASS|_AUTH_TOKEN|_SERVER_TOKEN|_SESSION_TOKEN|_API_KEY|_ACCESS_KEY|OPERATOR_TOKEN|DATABASE_URL|_ENCRYPTION_KEY|_DECRYPTION_KEYS|_PRIVATE_KEY|_PRIVATE_KEY_NEXT)$/;
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

export function defineVariables(group: string) {
  function variable<T>(spec: Spec<T> & { readonly default: string }): Defaulted<T>;
  function variable<T>(spec: Spec<T>): Variable<T>;
  function variable<T>(spec: Spec<T> & { readonly default?: string }): Variable<T> {
    const name = `${PREFIX}${spec.key}`;
    if (spec.default !== undefined) parseDefault(name, spec.kind, spec.default);
    return {
      name,
      aliases: spec.aliases ?? [],
      group,
      type: spec.kind.type,
      default: spec.default,
      computedDefault: spec.computedDefault,
      required: spec.required ?? "no",
      secret: isSecretName(name),
      unbuilt: spec.unbuilt,
      description:
        spec.unbuilt === undefined ? spec.description : `${spec.description} ${unbuiltNote(spec.unbuilt)}`,
      kind: spec.kind,
    };
  }
  return variable;
}

/** What the docs say of a switch whose feature is not built yet. */
export const unbuiltNote = (feature: string): string =>
  `Not built yet: \`true\` is refused at start (${feature}).`;

/** Defaults go through the same schema as user values; one that does not parse is a bug. */
export function parseDefault<T>(name: string, kind: Kind<T>, raw: string): T {
  const result = v.safeParse(kind.schema, raw);
  if (!result.success) throw new Error(`${name}: invalid built-in default ${JSON.stringify(raw)}`);
  return result.output;
}

/** The public description of a variable, without its parser. */
export function describe({ kind: _kind, ...documented }: Variable<unknown>): ConfigVariable {
  return documented;
}
