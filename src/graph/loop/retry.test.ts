import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { Annotation, type RetryPolicy, START, StateGraph } from "../index.js";
import { retryDelay } from "./retry.js";

const State = Annotation.Root({
  i: Annotation<number>,
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const fast: RetryPolicy = { initialInterval: 1, jitter: false, logWarning: false };

/** A one-node graph whose node runs `fn(attempt)` with the given retry policy. */
function flaky(retryPolicy: RetryPolicy, fn: (attempt: number) => unknown) {
  const calls = { n: 0 };
  const graph = new StateGraph(State)
    .addNode(
      "a",
      () => {
        calls.n += 1;
        return fn(calls.n) as never;
      },
      { retryPolicy },
    )
    .addEdge(START, "a")
    .compile();
  return { graph, calls };
}

function httpError(status: number): Error {
  return Object.assign(new Error(`status ${status}`), { status });
}

describe("retryPolicy", () => {
  let log: MockInstance;
  let warn: MockInstance;
  beforeEach(() => {
    log = vi.spyOn(console, "log").mockImplementation(() => {});
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    log.mockRestore();
    warn.mockRestore();
  });

  it("retries a failing node until it succeeds, within maxAttempts", async () => {
    const { graph, calls } = flaky({ ...fast, maxAttempts: 3 }, (n) => {
      if (n < 3) throw new Error(`flaky ${n}`);
      return { i: n };
    });
    expect(await graph.invoke({ i: 0 })).toEqual({ i: 3, log: [] });
    expect(calls.n).toBe(3);
  });

  it("gives up after maxAttempts and rethrows the last error", async () => {
    const { graph, calls } = flaky({ ...fast, maxAttempts: 2 }, (n) => {
      throw new Error(`always ${n}`);
    });
    await expect(graph.invoke({ i: 0 })).rejects.toThrow("always 2");
    expect(calls.n).toBe(2);
  });

  it("retries only errors retryOn accepts", async () => {
    const { graph, calls } = flaky(
      { ...fast, maxAttempts: 5, retryOn: (e) => !(e instanceof TypeError) },
      () => {
        throw new TypeError("nope");
      },
    );
    await expect(graph.invoke({ i: 0 })).rejects.toThrow(TypeError);
    expect(calls.n).toBe(1);
  });

  it("by default does not retry client errors (HTTP 400) but retries server errors (HTTP 500)", async () => {
    const client = flaky({ ...fast, maxAttempts: 5 }, () => {
      throw httpError(400);
    });
    await expect(client.graph.invoke({ i: 0 })).rejects.toThrow("status 400");
    expect(client.calls.n).toBe(1);
    const server = flaky({ ...fast, maxAttempts: 2 }, () => {
      throw httpError(500);
    });
    await expect(server.graph.invoke({ i: 0 })).rejects.toThrow("status 500");
    expect(server.calls.n).toBe(2);
  });

  it("by default does not retry an exhausted quota (error.code insufficient_quota)", async () => {
    const quota = flaky({ ...fast, maxAttempts: 3 }, () => {
      throw Object.assign(new Error("You exceeded your current quota"), {
        status: 429,
        error: { code: "insufficient_quota" },
      });
    });
    await expect(quota.graph.invoke({ i: 0 })).rejects.toThrow("current quota");
    expect(quota.calls.n).toBe(1);
  });

  it("keeps only the successful attempt's writes", async () => {
    const { graph } = flaky({ ...fast, maxAttempts: 3 }, (n) => {
      if (n < 2) throw new Error("x");
      return { log: [`attempt ${n}`] };
    });
    expect(await graph.invoke({ i: 0 })).toEqual({ i: 0, log: ["attempt 2"] });
  });

  it("counts attempts in executionInfo.nodeAttempt", async () => {
    const attempts: unknown[] = [];
    const graph = new StateGraph(State)
      .addNode(
        "a",
        (_s, config) => {
          attempts.push(config.executionInfo?.nodeAttempt);
          if (attempts.length < 3) throw new Error("x");
          return {};
        },
        { retryPolicy: { ...fast, maxAttempts: 3 } },
      )
      .addEdge(START, "a")
      .compile();
    await graph.invoke({ i: 0 });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("waits initialInterval, then multiplies the wait by backoffFactor", async () => {
    const times: number[] = [];
    const { graph } = flaky(
      { initialInterval: 30, backoffFactor: 2, jitter: false, logWarning: false, maxAttempts: 3 },
      () => {
        times.push(performance.now());
        if (times.length < 3) throw new Error("x");
        return {};
      },
    );
    await graph.invoke({ i: 0 });
    const [t0, t1, t2] = times as [number, number, number];
    expect(t1 - t0).toBeGreaterThanOrEqual(28);
    expect(t2 - t1).toBeGreaterThanOrEqual(58);
  });

  it("logs each retry with console.log, as the reference does, unless logWarning is false", async () => {
    const noisy = flaky({ initialInterval: 1, jitter: false, maxAttempts: 2 }, (n) => {
      if (n < 2) throw new Error("flaky 1");
      return {};
    });
    await noisy.graph.invoke({ i: 0 });
    const lines = [...log.mock.calls, ...warn.mock.calls].map((call) => String(call[0]));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Retrying task "a" after 1\.00ms \(attempt 1\) after Error/);
    expect(log).toHaveBeenCalledTimes(1);
    log.mockClear();
    warn.mockClear();
    const quiet = flaky({ ...fast, maxAttempts: 2 }, (n) => {
      if (n < 2) throw new Error("x");
      return {};
    });
    await quiet.graph.invoke({ i: 0 });
    expect(log).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("retryDelay", () => {
  it("grows by backoffFactor and is capped by maxInterval", () => {
    const policy: RetryPolicy = { initialInterval: 100, backoffFactor: 3, maxInterval: 500, jitter: false };
    expect([1, 2, 3, 4].map((attempt) => retryDelay(policy, attempt))).toEqual([100, 300, 500, 500]);
  });

  it("uses the LangGraph defaults: 500 ms doubling, up to one second of jitter", () => {
    expect(retryDelay({ jitter: false }, 1)).toBe(500);
    expect(retryDelay({ jitter: false }, 2)).toBe(1000);
    for (let i = 0; i < 20; i++) {
      const delay = retryDelay({}, 1);
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThan(1500);
    }
  });
});
