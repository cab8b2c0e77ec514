/**
 * A vitest setup file: every answer a test receives through `fetch` (the tests' own calls and
 * auth-js's) from an authsvc server started by `startServer` is recorded as it arrives and checked
 * against the OpenAPI description (openapi-answers.ts) after each test. A mismatch fails the test that
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
const pending: Promise<Answer | null>[] = [];
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

/**
 * Reads the answer's copy as it arrives; it is checked in `settle`, between tests, so that no
 * validation competes with the requests a test times.
 */
async function record(
  method: string,
  response: Response,
  basePaths: readonly string[],
): Promise<Answer | null> {
  try {
    const body = await response.text();
    const path = routedPath(new URL(response.url).pathname, basePaths) ?? "/\0unserved";
    return { method, path, status: response.status, headers: response.headers, body };
  } catch {
    return null; // The connection broke mid-answer (a test stopping the server): no answer to check.
  }
}

globalThis.fetch = async (input, init) => {
  const response = await original(input, init);
  const basePaths = serverBasePaths(response.url || urlOf(input));
  if (basePaths !== undefined) {
    const asked = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    // A followed 301–303 turns the request into a GET.
    const method = response.redirected ? "GET" : asked;
    pending.push(record(method, response.clone(), basePaths));
  }
  return response;
};

async function settle(): Promise<void> {
  const answers = await Promise.all(pending.splice(0));
  if (answers.some((answer) => answer !== null)) {
    const checker = await answerChecker();
    for (const answer of answers) {
      if (answer === null) continue;
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
