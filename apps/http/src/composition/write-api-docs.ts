/** `npm run docs:api`: rewrites the generated parts of docs/http-api.md from the OpenAPI description. */
import { readFileSync, writeFileSync } from "node:fs";
import { openApiDocument } from "../openapi/document.js";
import { updateHttpApiDoc } from "../openapi/markdown.js";
import { MODULES } from "./modules.js";

const page = new URL("../../../../docs/http-api.md", import.meta.url);
writeFileSync(page, updateHttpApiDoc(readFileSync(page, "utf8"), openApiDocument(MODULES)));
