import { describe, expect, it } from "vitest";
import { valuesEqual } from "./filter.js";
import {
  getTextAtPath,
  matchesFilter,
  namespaceToPath,
  pathToNamespace,
  planStoreBatch,
  selectNamespaces,
  tokenizePath,
  validateNamespace,
} from "./index.js";
import { compareNamespaces } from "./namespace.js";

describe("store helpers", () => {
  it("tokenizePath splits on dots outside brackets and braces", () => {
    expect(tokenizePath("a.b[*].c")).toStrictEqual(["a", "b[*]", "c"]);
    expect(tokenizePath("a[0].b")).toStrictEqual(["a[0]", "b"]);
    expect(tokenizePath("$")).toStrictEqual(["$"]);
    expect(tokenizePath("a.{b.c,d}")).toStrictEqual(["a", "{b.c,d}"]);
  });

  it("getTextAtPath extracts strings, and JSON for other values", () => {
    const doc = {
      title: "T",
      n: 5,
      chapters: [{ text: "one" }, { text: "two" }],
      authors: ["x", "y", "z"],
      sections: { a: "sa", b: "sb" },
      empty: null,
    };
    expect(getTextAtPath(doc, "title")).toStrictEqual(["T"]);
    expect(getTextAtPath(doc, "n")).toStrictEqual(["5"]);
    expect(getTextAtPath(doc, "chapters[*].text")).toStrictEqual(["one", "two"]);
    expect(getTextAtPath(doc, "authors[0]")).toStrictEqual(["x"]);
    expect(getTextAtPath(doc, "authors[-1]")).toStrictEqual(["z"]);
    expect(getTextAtPath(doc, "sections.*")).toStrictEqual(["sa", "sb"]);
    expect(getTextAtPath(doc, "{title,n}")).toStrictEqual(["T", "5"]);
    expect(getTextAtPath(doc, "$.title")).toStrictEqual(["T"]);
    expect(getTextAtPath(doc, "missing.deep")).toStrictEqual([]);
    expect(getTextAtPath(doc, "empty")).toStrictEqual([]);
    expect(getTextAtPath({ a: 1 }, "$")).toStrictEqual(['{\n  "a": 1\n}']);
  });

  it("valuesEqual is deep and handles Dates, Maps, Sets and NaN", () => {
    expect(valuesEqual({ a: [1, { b: new Date(1) }] }, { a: [1, { b: new Date(1) }] })).toBe(true);
    expect(valuesEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(valuesEqual([1], { 0: 1 })).toBe(false);
    expect(valuesEqual(new Map([[1, 2]]), new Map([[1, 2]]))).toBe(true);
    expect(valuesEqual(new Set([1]), new Set([2]))).toBe(false);
    expect(valuesEqual(Number.NaN, Number.NaN)).toBe(true);
  });

  it("matchesFilter's range operators compare as numbers, as LangGraph.js's stores do", () => {
    expect(matchesFilter({ n: 5n }, { n: { $gt: 4 } })).toBe(true);
    expect(matchesFilter({ n: "10" }, { n: { $gt: 3 } })).toBe(true);
    expect(matchesFilter({ n: null }, { n: { $lt: 6 } })).toBe(true);
    expect(matchesFilter({ n: Number.NaN }, { n: { $lte: 4 } })).toBe(false);
    expect(matchesFilter({}, { n: { $lte: 4 } })).toBe(false);
    // text has no numeric reading
    expect(matchesFilter({ s: "b" }, { s: { $gt: "a", $lt: "c" } })).toBe(false);
    expect(matchesFilter({ d: new Date(5) }, { d: { $gte: new Date(5) } })).toBe(true);
    // an empty condition is an empty list of operators: every value meets it
    expect(matchesFilter({ n: 1 }, { n: {} })).toBe(true);
    expect(matchesFilter({}, { n: {} })).toBe(true);
  });

  it("namespace paths and ordering", () => {
    expect(namespaceToPath(["a", "b"])).toBe("a.b");
    expect(pathToNamespace("a.b")).toStrictEqual(["a", "b"]);
    expect(pathToNamespace("")).toStrictEqual([]);
    expect([["b"], ["a", "x"], ["a"], ["a", "b"]].sort(compareNamespaces)).toStrictEqual([
      ["a"],
      ["a", "b"],
      ["a", "x"],
      ["b"],
    ]);
    expect(() => validateNamespace(["ok", "*"])).not.toThrow();
  });

  it("selectNamespaces applies conditions, depth, dedupe, sort and page", () => {
    const all = [["a", "b", "c"], ["a", "d"], ["b"]];
    expect(selectNamespaces(all, { limit: 10, offset: 0, maxDepth: 1 })).toStrictEqual([["a"], ["b"]]);
    expect(
      selectNamespaces(all, { limit: 1, offset: 1, matchConditions: [{ matchType: "prefix", path: ["a"] }] }),
    ).toStrictEqual([["a", "d"]]);
  });

  it("planStoreBatch keeps the first position and the last value of repeated writes", () => {
    const plan = planStoreBatch([
      { namespace: ["n"], key: "a", value: { v: 1 } },
      { namespace: ["n"], key: "b", value: { v: 1 } },
      { namespace: ["n"], key: "a", value: { v: 2 } },
      { namespace: ["n"], key: "a" },
    ]);
    expect(plan.puts.map((put) => [put.key, put.value])).toStrictEqual([
      ["a", { v: 2 }],
      ["b", { v: 1 }],
    ]);
    expect(plan.reads).toStrictEqual([{ kind: "get", index: 3, op: { namespace: ["n"], key: "a" } }]);
  });
});
