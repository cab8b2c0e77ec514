import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";

/**
 * Paths Hono's RegExpRouter cannot hold beside the others: a static segment where another route of
 * the same depth has a parameter (`/factors/recovery-codes/verify` beside `/factors/:factor_id/verify`,
 * both auth-js's). One such route makes Hono's default router fall back to its TrieRouter for every
 * request — measured on GET /user, 3 KB more allocated per request.
 */
export const TRIE_PREFIXES: readonly string[] = ["/factors/recovery-codes"];

/**
 * Hono's RegExpRouter for every path but those under `prefixes`, which a TrieRouter holding every route
 * (the middleware of `*` too) answers: the same handlers in the same order either way, since a path
 * under a prefix matches none of the routes the RegExpRouter leaves out and vice versa.
 */
export class SplitRouter<T> implements Router<T> {
  readonly name = "SplitRouter";
  readonly #fast = new RegExpRouter<T>();
  readonly #trie = new TrieRouter<T>();
  readonly #prefixes: readonly string[];

  constructor(prefixes: readonly string[] = TRIE_PREFIXES) {
    this.#prefixes = prefixes;
  }

  #underPrefix(path: string): boolean {
    for (const prefix of this.#prefixes)
      if (path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 47))
        return true;
    return false;
  }

  add(method: string, path: string, handler: T): void {
    this.#trie.add(method, path, handler);
    if (!this.#underPrefix(path)) this.#fast.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    return this.#underPrefix(path) ? this.#trie.match(method, path) : this.#fast.match(method, path);
  }
}
