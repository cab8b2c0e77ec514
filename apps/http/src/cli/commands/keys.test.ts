import { describe, expect, it } from "vitest";
import { writeTarget } from "./keys.js";

describe("authsvc keys --write", () => {
  it("takes the file out of the arguments, in both spellings", () => {
    expect(writeTarget(["--add", "--write", ".env", "--standby"])).toEqual({
      rest: ["--add", "--standby"],
      file: ".env",
    });
    expect(writeTarget(["--write=prod.env"])).toEqual({ rest: [], file: "prod.env" });
    expect(writeTarget(["--promote", "k"])).toEqual({ rest: ["--promote", "k"] });
  });

  it("refuses --write without a file, or twice", () => {
    expect(writeTarget(["--write"])).toEqual({ error: "--write needs a file (.env)" });
    expect(writeTarget(["--write", "--add"])).toEqual({ error: "--write needs a file (.env)" });
    expect(writeTarget(["--write", "a", "--write", "b"])).toEqual({ error: "--write given twice" });
  });
});
