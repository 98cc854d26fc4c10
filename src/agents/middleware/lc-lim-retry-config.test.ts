import { describe, expect, it } from "vitest";
import { modelRetryMiddleware } from "./model-retry.js";
import { InvalidRetryConfigError } from "./retry-options.js";
import { toolRetryMiddleware } from "./tool-retry.js";

/** The error a factory throws for `options`, or a failure when it throws none. */
function configErrorOf(create: () => unknown): InvalidRetryConfigError {
  try {
    create();
  } catch (error) {
    if (error instanceof InvalidRetryConfigError) return error;
    throw error;
  }
  throw new Error("expected an InvalidRetryConfigError");
}

describe("retry middleware option errors carry validator-style details as cause", () => {
  it("reports a negative number as too_small at the option's path", () => {
    const error = configErrorOf(() => modelRetryMiddleware({ initialDelayMs: -5 }));
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause.issues).toEqual([
      {
        code: "too_small",
        minimum: 0,
        type: "number",
        inclusive: true,
        exact: false,
        path: ["initialDelayMs"],
        message: "Number must be greater than or equal to 0",
      },
    ]);
  });

  it("reports a wrong type as invalid_type with what was expected and received", () => {
    const error = configErrorOf(() => toolRetryMiddleware({ maxRetries: "three" as unknown as number }));
    expect(error.cause.issues[0]).toMatchObject({
      code: "invalid_type",
      expected: "number",
      received: "string",
      path: ["maxRetries"],
    });
  });

  it("lists every problem, in the order of the message", () => {
    const error = configErrorOf(() =>
      toolRetryMiddleware({ maxDelayMs: -1, onFailure: "explode" as unknown as "error" }),
    );
    expect(error.cause.issues.map((issue) => [issue.path[0], issue.code])).toEqual(
      error.issues.map((issue) => [issue.path, issue.code]),
    );
    expect(error.cause.issues.map((issue) => issue.code).sort()).toEqual(["invalid_union", "too_small"]);
  });
});
