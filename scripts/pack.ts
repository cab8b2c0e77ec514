/**
 * `npm run pack`: one installable tarball, `authsvc-<version>.tgz`, in the current directory.
 *
 * The repository is three workspace packages (core, adapters, apps/http) that import each other by
 * name, and a patched postgres.js (patches/). Published separately, the workspaces would have to be
 * versioned and installed together, and the patch would be lost: so the tarball is one package,
 * `authsvc`, that bundles the three workspaces (their built `dist/` only, with the migrations and the
 * embedded database template) and the patched postgres.js as `bundleDependencies`, and depends on
 * every other runtime library at the version the repository's lockfile tested. Nothing of the test
 * tooling comes along (vitest, testcontainers, playwright, tsx are development dependencies).
 *
 * It packs what `npm run build` made: run that first (`npm run pack` does).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
interface Manifest {
  readonly version: string;
  readonly description?: string;
  readonly engines?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly exports?: Record<string, unknown>;
  readonly [field: string]: unknown;
}
const read = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8")) as Manifest;
const rootManifest = read("package.json");
const lock = read("package-lock.json") as unknown as { packages: Record<string, { version?: string }> };

const WORKSPACES = [
  { name: "@authsvc/core", dir: "core" },
  { name: "@authsvc/adapters", dir: "adapters" },
  { name: "@authsvc/http", dir: "apps/http" },
] as const;
/** Bundled as patched here: installed from the registry, the patch (patches/) would be missing. */
const PATCHED = ["postgres"];

/** The version the lockfile installed: the published package is what the tests ran against. */
function tested(name: string): string {
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (version === undefined) throw new Error(`${name} is not in package-lock.json`);
  return version;
}

function runtimeDependencies(): Record<string, string> {
  const names = new Set<string>();
  for (const { dir } of WORKSPACES)
    for (const name of Object.keys(read(`${dir}/package.json`).dependencies ?? {}))
      if (!name.startsWith("@authsvc/")) names.add(name);
  return Object.fromEntries([...names].sort().map((name) => [name, tested(name)]));
}

const version = rootManifest.version;
for (const { dir } of WORKSPACES) {
  if (read(`${dir}/package.json`).version !== version)
    throw new Error(`${dir}/package.json is not at version ${version}`);
  if (!existsSync(join(root, dir, "dist"))) throw new Error(`${dir}/dist is missing: run npm run build`);
}
if (!existsSync(join(root, "adapters/dist/embedded-template/stamp")))
  throw new Error("adapters/dist/embedded-template is missing: run npm run build");

const stage = mkdtempSync(join(tmpdir(), "authsvc-pack-"));
try {
  const modules = join(stage, "node_modules");
  const noTests = (source: string) =>
    !/\.test\.(js|d\.ts|js\.map|d\.ts\.map)$/.test(source) && !/[/\\]testing([/\\]|$)/.test(source);
  for (const { name, dir } of WORKSPACES) {
    const target = join(modules, name);
    mkdirSync(target, { recursive: true });
    cpSync(join(root, dir, "dist"), join(target, "dist"), { recursive: true, filter: noTests });
    const {
      dependencies: _deps,
      devDependencies: _dev,
      private: _private,
      files: _files,
      ...manifest
    } = read(`${dir}/package.json`);
    // The testing entry points stay in the repository.
    const exports = Object.fromEntries(
      Object.entries(manifest.exports ?? {}).filter(([entry]) => entry !== "./testing"),
    );
    writeFileSync(join(target, "package.json"), `${JSON.stringify({ ...manifest, exports }, null, 2)}\n`);
  }
  cpSync(join(root, "apps/http/bin"), join(modules, "@authsvc/http/bin"), { recursive: true });
  // adapters finds the migrations beside its own dist/ (adapters/src/postgres/migrate.ts).
  cpSync(join(root, "migrations"), join(modules, "@authsvc/adapters/migrations"), { recursive: true });
  for (const name of PATCHED)
    cpSync(join(root, "node_modules", name), join(modules, name), { recursive: true });

  mkdirSync(join(stage, "bin"));
  writeFileSync(
    join(stage, "bin/authsvc.js"),
    `#!/usr/bin/env node\n// The authsvc command: the bundled server's own.\nawait import(new URL("../node_modules/@authsvc/http/bin/authsvc.js", import.meta.url).href);\n`,
    { mode: 0o755 },
  );
  for (const file of ["README.md", "CHANGELOG.md"]) cpSync(join(root, file), join(stage, file));
  const bundled = [...WORKSPACES.map(({ name }) => name), ...PATCHED];
  const manifest = {
    name: "authsvc",
    version,
    description: rootManifest.description,
    type: "module",
    bin: { authsvc: "bin/authsvc.js" },
    engines: rootManifest.engines,
    files: ["bin", "README.md", "CHANGELOG.md"],
    dependencies: {
      ...Object.fromEntries(WORKSPACES.map(({ name }) => [name, version])),
      ...Object.fromEntries(PATCHED.map((name) => [name, tested(name)])),
      ...runtimeDependencies(),
    },
    bundleDependencies: bundled,
  };
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const out = resolve(process.argv[2] ?? ".");
  mkdirSync(out, { recursive: true });
  const packed = execFileSync("npm", ["pack", "--pack-destination", out, "--json"], {
    cwd: stage,
    encoding: "utf8",
  });
  const [info] = JSON.parse(packed) as {
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
  }[];
  if (!info) throw new Error("npm pack made nothing");
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  process.stdout.write(
    `${join(out, info.filename)}: ${mb(info.size)} (${mb(info.unpackedSize)} unpacked, ${info.entryCount} files)\n`,
  );
} finally {
  rmSync(stage, { recursive: true, force: true });
}
