/**
 * A vitest setup file: every answer a test receives through `fetch` (the tests' own calls and
 * auth-js's) from an authsvc server started by `startServer` is recorded as the test reads it and
 * checked against the OpenAPI description (openapi-answers.ts) after each test. A mismatch fails the test that
 * received it, in its `afterEach` (or the file, in `afterAll`, for answers received outside a test).
 *
 * The count of answers checked is printed per file; with `AUTHSVC_ANSWER_COUNT_FILE` set, it is also
 * appended to that file as a JSON line.
 */
import { appendFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { Answer, AnswerChecker } from "./openapi-answers.js";
import { routedPath, serverBasePaths } from "./served-apis.js";

const original = globalThis.fetch;
const problems: string[] = [];
let checked = 0;
let checker: Promise<AnswerChecker> | undefined;

/** The description of the source the server was built from, loaded at the first answer. */
function answerChecker(): Promise<AnswerChecker> {
  checker ??= (async () => {
    const [{ MODULES, openApiDocument }, { AnswerChecker }] = await Promise.all([
      import("@authsvc/http"),
      import("./openapi-answers.js"),
    ]);
    return new AnswerChecker(openApiDocument(MODULES) as unknown as Record<string, unknown>);
  })();
  return checker;
}

const urlOf = (input: Parameters<typeof fetch>[0]) =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url;

/** How long `settle` waits for a body the test left unread before leaving it unchecked. */
const UNREAD_BODY_WAIT_MS = 2_000;

/**
 * Keeps the body the test reads (no copy, so nothing competes with the requests a test times): the
 * reading methods of `response` read it once and keep the bytes. What the test leaves unread is read
 * by `settle`; a body the test streamed itself (`response.body`) is not checked.
 */
function keepBody(response: Response): () => Promise<string | null> {
  let bytes: Promise<ArrayBuffer> | undefined;
  const read = () => {
    bytes ??= Response.prototype.arrayBuffer.call(response) as Promise<ArrayBuffer>;
    return bytes;
  };
  const text = async () => new TextDecoder().decode(await read());
  Object.defineProperties(response, {
    arrayBuffer: { value: async () => (await read()).slice(0) },
    bytes: { value: async () => new Uint8Array((await read()).slice(0)) },
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) },
    blob: {
      value: async () => new Blob([await read()], { type: response.headers.get("content-type") ?? "" }),
    },
  });
  return async () => {
    if (bytes === undefined && response.bodyUsed) return null;
    const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), UNREAD_BODY_WAIT_MS).unref());
    // A connection broken mid-answer (a test stopping the server) leaves no answer to check.
    return Promise.race([text().catch(() => null), late]);
  };
}

interface Received {
  readonly method: string;
  readonly response: Response;
  readonly basePaths: readonly string[];
  readonly body: () => Promise<string | null>;
}
const received: Received[] = [];

globalThis.fetch = async (input, init) => {
  const response = await original(input, init);
  const basePaths = serverBasePaths(response.url || urlOf(input));
  if (basePaths !== undefined) {
    const asked = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    // A followed 301–303 turns the request into a GET.
    const method = response.redirected ? "GET" : asked;
    received.push({ method, response, basePaths, body: keepBody(response) });
  }
  return response;
};

/** The answers received since the last look, with their bodies. */
async function answersReceived(): Promise<Answer[]> {
  const answers = await Promise.all(
    received.splice(0).map(async ({ method, response, basePaths, body }): Promise<Answer | null> => {
      const text = await body();
      if (text === null) return null;
      const path = routedPath(new URL(response.url).pathname, basePaths) ?? "/\0unserved";
      return { method, path, status: response.status, headers: response.headers, body: text };
    }),
  );
  return answers.filter((answer) => answer !== null);
}

async function settle(): Promise<void> {
  const answers = await answersReceived();
  if (answers.length > 0) {
    const checker = await answerChecker();
    for (const answer of answers) {
      checked += 1;
      const problem = checker.check(answer);
      if (problem !== undefined) problems.push(problem);
    }
  }
  if (problems.length > 0) {
    const found = problems.splice(0);
    throw new Error(`answers that the OpenAPI description does not allow:\n${found.join("\n")}`);
  }
}

// An e2e file loads the description before its own set-up, so that loading it never competes with
// the requests a test times.
beforeAll(async () => {
  if ((expect.getState().testPath ?? "").endsWith(".e2e.test.ts")) await answerChecker();
}, 60_000);

afterEach(settle);

afterAll(async () => {
  await settle();
  if (checked === 0) return;
  const file = expect.getState().testPath ?? "";
  console.log(`[openapi] ${checked} answers checked against the description`);
  const countFile = process.env.AUTHSVC_ANSWER_COUNT_FILE;
  if (countFile) appendFileSync(countFile, `${JSON.stringify({ file, checked })}\n`);
});
