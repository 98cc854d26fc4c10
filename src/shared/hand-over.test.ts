import { describe, expect, it } from "vitest";
import { handOver, takeHandedOver } from "./hand-over.js";

describe("handOver", () => {
  it("marks a list once: the first receiver takes it, later ones copy", () => {
    const list = handOver([1, 2]);
    expect(takeHandedOver(list)).toBe(true);
    expect(takeHandedOver(list)).toBe(false);
    expect(takeHandedOver([1, 2])).toBe(false);
  });
});
