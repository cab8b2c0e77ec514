/** The Node request under a Hono context served by @hono/node-server (its `env.incoming`). */
export const incomingOf = (c: { env: unknown }): object | undefined =>
  (c.env as { incoming?: object } | undefined)?.incoming;
