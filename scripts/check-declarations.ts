/**
 * `npm run lint`: fails when the app serves a route no endpoint declares (http/endpoint.ts), since
 * the OpenAPI description, the fuzzers and the guards know only the declared ones.
 */
import { MODULES } from "../apps/http/src/composition/modules.js";
import { declaredRoutes, undeclaredRoutes } from "../apps/http/src/testing/declared-routes.js";
import { testApp } from "../apps/http/src/testing/test-app.js";

const { app } = testApp();
const undeclared = undeclaredRoutes(app, MODULES);
if (undeclared.length > 0) {
  console.error("Routes served without an endpoint declaration (http/endpoint.ts):");
  for (const route of undeclared) console.error(`  ${route.method} ${route.path}`);
  process.exit(1);
}
console.log(`Every route is declared: ${declaredRoutes(MODULES).length} endpoints.`);
