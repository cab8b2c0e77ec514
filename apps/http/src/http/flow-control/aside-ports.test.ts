import type { AuthDeps, DepsTraits } from "@authsvc/core";
import { fakeDeps } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import type { Aside } from "./admission.js";
import { asidePorts } from "./aside-ports.js";

/** An aside that records each wait it is given. */
function recordingAside() {
  let waits = 0;
  const aside: Aside = (wait) => {
    waits++;
    return wait();
  };
  return { aside, waits: () => waits };
}

const viewOf = (auth: AuthDeps): AuthDeps => Object.create(auth);

describe("asidePorts: the waits the ports declare outside", () => {
  it("step aside for each call of a method declared waitsOutside, and only for those", async () => {
    const auth = fakeDeps();
    const { aside, waits } = recordingAside();
    const view = viewOf(auth);
    asidePorts(auth).apply(view, aside);
    const hash = await view.hasher.hash("a password");
    expect(waits()).toBe(1);
    expect(await view.hasher.verify(hash, "a password")).toBe(true);
    await view.hasher.verifyDummy("a password");
    expect(waits()).toBe(3);
    // Not a wait: no slot given up.
    expect(view.hasher.needsRehash(hash)).toBe(false);
    expect(waits()).toBe(3);
  });

  it("follow the declaration, not the port's name, and put the plain ports back", async () => {
    const auth = fakeDeps();
    const { aside, waits } = recordingAside();
    const onlyVerify: DepsTraits = { hasher: { verify: { waitsOutside: true } } };
    const ports = asidePorts(auth, onlyVerify);
    const view = viewOf(auth);
    ports.apply(view, aside);
    const hash = await view.hasher.hash("a password");
    expect(waits()).toBe(0);
    await view.hasher.verify(hash, "a password");
    expect(waits()).toBe(1);
    ports.restore(view);
    expect(view.hasher).toBe(auth.hasher);
  });

  it("are built once per admission, again when a port was swapped on the deps", () => {
    const auth = fakeDeps() as { -readonly [K in keyof AuthDeps]: AuthDeps[K] };
    const { aside } = recordingAside();
    const ports = asidePorts(auth);
    const [first, second, third] = [viewOf(auth), viewOf(auth), viewOf(auth)];
    ports.apply(first, aside);
    ports.apply(second, aside);
    expect(second.hasher).toBe(first.hasher);
    auth.hasher = fakeDeps().hasher;
    ports.apply(third, aside);
    expect(third.hasher).not.toBe(first.hasher);
    expect(Object.getPrototypeOf(third.hasher)).toBe(auth.hasher);
  });
});
