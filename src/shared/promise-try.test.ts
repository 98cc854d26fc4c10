import { describe, expect, it } from "vitest";
import { promiseTry } from "./promise-try.js";

describe("promiseTry", () => {
  it("hands back a native promise as it is, wraps plain values, and turns throws into rejections", async () => {
    const native = Promise.resolve(1);
    expect(promiseTry(() => native)).toBe(native);
    await expect(promiseTry(() => 2)).resolves.toBe(2);
    const thrown = promiseTry(() => {
      throw new Error("sync failure");
    });
    expect(thrown).toBeInstanceOf(Promise);
    await expect(thrown).rejects.toThrow("sync failure");
  });
});
