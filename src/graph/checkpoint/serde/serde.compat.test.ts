import { JsonPlusSerializer as ReferenceSerializer } from "@langchain/langgraph-checkpoint";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonPlusSerializer } from "./index.js";

const reference = new ReferenceSerializer();
const ours = new JsonPlusSerializer();
/** JSON data as JSON text gives it back (so no -0, which both sides write differently). */
const plainJson = fc
  .jsonValue()
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown)
  .filter((value) => !JSON.stringify(value).includes('"__proto__"'));

describe("compatibility with LangGraph.js JsonPlusSerializer on plain JSON data", () => {
  it("data the reference writes decodes to the same value with ours, and back", async () => {
    await fc.assert(
      // The reference drops "__proto__" keys; ours keeps them (tested in serde.test.ts).
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
