import { describe, expect, it } from "vitest";
import { promiseTry, thenOrElse } from "./promise-try.js";

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

  it("thenOrElse sends a rejection and a throw of the continuation to the error handler, not a later rejection", async () => {
    const seen: unknown[] = [];
    const onError = (error: unknown): unknown => {
      seen.push((error as Error).message);
      return "handled";
    };
    await expect(thenOrElse(Promise.resolve(1), (v) => v + 1, onError)).resolves.toBe(2);
    await expect(thenOrElse(3, (v) => v * 2, onError)).resolves.toBe(6);
    await expect(thenOrElse(Promise.reject(new Error("upstream")), () => "value", onError)).resolves.toBe(
      "handled",
    );
    await expect(
      thenOrElse(
        Promise.resolve(1),
        () => {
          throw new Error("continuation");
        },
        onError,
      ),
    ).resolves.toBe("handled");
    await expect(
      thenOrElse(Promise.resolve(1), () => Promise.reject(new Error("later")), onError),
    ).rejects.toThrow("later");
    expect(seen).toEqual(["upstream", "continuation"]);
  });
});
