import { JsonPlusSerializer as ReferenceSerializer } from "@langchain/langgraph-checkpoint";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonPlusSerializer } from "./index.js";

const reference = new ReferenceSerializer();
const ours = new JsonPlusSerializer();
/**
 * JSON data as JSON text gives it back (so no -0, which both sides write differently), without
 * "__proto__" keys (the reference drops them; ours keeps them: serde.test.ts) and without "~t"
 * keys (the tag of our format: ours escapes such keys when it writes them and reads an unescaped
 * one as a tag, see docs/differences.md).
 */
const plainJson = fc
  .jsonValue()
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown)
  .filter((value) => {
    const text = JSON.stringify(value);
    return !text.includes('"__proto__"') && !text.includes('"~t":');
  });

describe("compatibility with LangGraph.js JsonPlusSerializer on plain JSON data", () => {
  it("data the reference writes decodes to the same value with ours, and back", async () => {
    await fc.assert(
      fc.asyncProperty(plainJson, async (value) => {
        const [type, bytes] = await reference.dumpsTyped(value);
        const expected = JSON.parse(JSON.stringify(value));
        expect(await ours.loadsTyped(type, bytes)).toStrictEqual(expected);
        const [ourType, ourBytes] = await ours.dumpsTyped(value);
        expect(ourType).toBe(type);
        expect(await reference.loadsTyped(ourType, ourBytes)).toStrictEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('top-level bytes use the same ["bytes", raw] form', async () => {
    const raw = new Uint8Array([1, 2, 3]);
    expect(await ours.dumpsTyped(raw)).toStrictEqual(await reference.dumpsTyped(raw));
  });
});
