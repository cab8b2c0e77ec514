import type { IncomingMessage } from "node:http";

/** Why a request's body could not be read before the request was admitted. */
export type BodyFailure = "too_large" | "timed_out" | "ended_early";

/**
 * Bytes of bodies held in memory ahead of admission, beyond each request's free share, shared by all
 * requests of a server. Admission used to bound that memory (only admitted requests read their
 * bodies; the others' waited in the kernel); reading ahead, a thousand connections sending a
 * mebibyte each would hold a gibibyte. A request that finds the budget spent stops reading (TCP
 * pushes back on its client) until another gives some back, within its own time limit. One client
 * (address) may hold at most `perClientBytes` of it: else one client trickling large bodies on a few
 * dozen connections would hold it all, and every other client's large bodies would wait and time out.
 */
export class BodyBudget {
  #available: number;
  readonly #perClient: number;
  readonly #held = new Map<string, number>();
  readonly #waiting: (() => void)[] = [];

  constructor(bytes: number, perClientBytes = bytes) {
    this.#available = bytes;
    this.#perClient = perClientBytes;
  }

  /** Takes `bytes` for `client` if that many are left, overall and of the client's share. */
  take(bytes: number, client?: string): boolean {
    if (bytes > this.#available) return false;
    if (client !== undefined) {
      const held = this.#held.get(client) ?? 0;
      if (held + bytes > this.#perClient) return false;
      this.#held.set(client, held + bytes);
    }
    this.#available -= bytes;
    return true;
  }

  /** Gives `bytes` taken for `client` back; every request waiting tries again. */
  give(bytes: number, client?: string): void {
    if (bytes === 0) return;
    this.#available += bytes;
    if (client !== undefined) {
      const held = (this.#held.get(client) ?? 0) - bytes;
      if (held > 0) this.#held.set(client, held);
      else this.#held.delete(client);
    }
    for (const wake of this.#waiting.splice(0)) wake();
  }

  /** Resolves at the next `give`. */
  next(): Promise<void> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

/** How much body a request may send, how long it may take, and the memory bodies share. */
export interface BodyLimits {
  readonly maxBytes: number;
  /** From the moment the headers are in; `API_BODY_TIMEOUT`. */
  readonly timeoutMs: number;
  /** Bytes any request may hold without drawing on `budget`: the whole of nearly every auth request. */
  readonly freeBytes: number;
  readonly budget: BodyBudget;
}

/** What reading ahead came to: a failure, or none; `release` gives its share of the budget back. */
export interface BodyAhead {
  readonly failure: BodyFailure | undefined;
  /** Call once the request is answered (its body is no longer needed). */
  readonly release: () => void;
}

/**
 * Stamped on a Node request whose body could not be read, for the app to answer (app.ts). A symbol
 * property, as admission's stamp, so nothing is kept per request elsewhere.
 */
const BODY_FAILURE = Symbol("authsvc.bodyFailure");
/** `rawBody` is where @hono/node-server looks for a body already read (it then serves it as the body). */
type Stamped = { [BODY_FAILURE]?: BodyFailure; rawBody?: Buffer };

/** Whether `incoming` carries a body at all (RFC 9112 §6.3: a length or a transfer coding). */
const hasBody = (incoming: IncomingMessage) =>
  incoming.headers["transfer-encoding"] !== undefined ||
  (incoming.headers["content-length"] !== undefined && incoming.headers["content-length"] !== "0");

const NOTHING: BodyAhead = { failure: undefined, release: () => {} };

/**
 * Reads the whole body of `incoming` into memory (at most `maxBytes`, within `timeoutMs`) before the
 * request is admitted, so that a client trickling its body holds no admission slot, no deadline and
 * no database connection meanwhile — only its socket. The body is left where @hono/node-server reads
 * it (`rawBody`), so routes read it as before. A failure is also stamped on the request
 * (`bodyFailureOf`). GET and HEAD bodies are not read: no route reads them. The client `clientOf`
 * names (what the per-client limits count) is charged for what the body draws on the shared budget;
 * it is asked only then, once, so that nearly every body within its free share costs no lookup.
 */
export function readBodyAhead(
  incoming: IncomingMessage,
  limits: BodyLimits,
  clientOf: () => string | undefined = () => undefined,
): Promise<BodyAhead> {
  if (incoming.method === "GET" || incoming.method === "HEAD" || !hasBody(incoming)) {
    return Promise.resolve(NOTHING);
  }
  const stamped = incoming as IncomingMessage & Stamped;
  if (Number(incoming.headers["content-length"] ?? 0) > limits.maxBytes) {
    stamped[BODY_FAILURE] = "too_large";
    return Promise.resolve({ failure: "too_large", release: NOTHING.release });
  }
  const { budget } = limits;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let charged = 0;
    let settled = false;
    // Asked at the first charge; `give` needs it only once something was charged.
    let client: string | undefined;
    let clientKnown = false;
    const release = () => {
      budget.give(charged, client);
      charged = 0;
    };
    const settle = (failure: BodyFailure | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onEnded);
      incoming.off("close", onEnded);
      if (failure === undefined) {
        stamped.rawBody = Buffer.concat(chunks, size);
        resolve({ failure, release });
        return;
      }
      stamped[BODY_FAILURE] = failure;
      chunks.length = 0;
      release();
      resolve({ failure, release: NOTHING.release });
    };
    // Charges what is held beyond the free share; when the budget is spent, reading pauses until
    // another request gives some back.
    const charge = () => {
      if (settled) return;
      const owed = Math.max(0, size - limits.freeBytes) - charged;
      if (owed > 0 && !clientKnown) {
        client = clientOf();
        clientKnown = true;
      }
      if (owed <= 0 || budget.take(owed, client)) {
        charged += Math.max(0, owed);
        incoming.resume();
        return;
      }
      incoming.pause();
      void budget.next().then(charge);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return settle("too_large");
      chunks.push(chunk);
      charge();
    };
    const onEnd = () => settle(undefined);
    const onEnded = () => settle("ended_early");
    const timer = setTimeout(() => settle("timed_out"), limits.timeoutMs);
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onEnded);
    incoming.on("close", onEnded);
  });
}

/** The failure `readBodyAhead` stamped on the Node request; undefined when none. */
export const bodyFailureOf = (incoming: object | undefined): BodyFailure | undefined =>
  (incoming as Stamped | undefined)?.[BODY_FAILURE];

/** Whether the body of the Node request was read ahead (and so is already within its size limit). */
export const bodyReadAhead = (incoming: object | undefined): boolean =>
  (incoming as Stamped | undefined)?.rawBody !== undefined;
