import { describe, expect, it } from "vitest";
import { redirectParam } from "./redirect-param.js";

/** `redirect_to` as `/verify` reads it back from a link. */
const readBack = (value: string) =>
  new URL(
    `http://localhost:9999/verify?token=t&type=signup&redirect_to=${redirectParam(value)}`,
  ).searchParams.get("redirect_to");

describe("redirectParam", () => {
  it("leaves a plain URL as it is, as the reference writes it", () => {
    expect(redirectParam("http://localhost:9999/welcome")).toBe("http://localhost:9999/welcome");
    expect(redirectParam("https://app.example.com/a/b;c?d")).toBe("https://app.example.com/a/b;c?d");
  });

  it("encodes a URL holding a query, a fragment, a plus, a space or a percent sign", () => {
    expect(redirectParam("https://app.example.com/welcome?x=1&y=2")).toBe(
      "https%3A%2F%2Fapp.example.com%2Fwelcome%3Fx%3D1%26y%3D2",
    );
    expect(redirectParam("https://app.example.com/#top")).toBe("https%3A%2F%2Fapp.example.com%2F%23top");
    expect(redirectParam("https://app.example.com/a+b")).toBe("https%3A%2F%2Fapp.example.com%2Fa%2Bb");
    // Already encoded by the caller: encoded again, so that /verify gets the very value that was checked.
    expect(redirectParam("https://app.example.com/%41")).toBe("https%3A%2F%2Fapp.example.com%2F%2541");
  });

  it("reads back unchanged for every printable ASCII character and beyond", () => {
    const samples = [
      ...Array.from({ length: 95 }, (_, i) => `https://app.example.com/p${String.fromCharCode(32 + i)}q`),
      "https://app.example.com/é?ü=1",
      "https://app.example.com/😀",
      "",
    ];
    for (const sample of samples) expect(readBack(sample)).toBe(sample);
  });
});
