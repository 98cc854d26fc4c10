import { describe, expect, it } from "vitest";
import { handOver, takeHandedOver } from "./hand-over.js";

describe("handOver", () => {
  it("marks a list once: the first receiver takes it, later ones copy", () => {
    const list = handOver([1, 2]);
    expect(takeHandedOver(list)).toBe("list");
    expect(takeHandedOver(list)).toBe("no");
    expect(takeHandedOver([1, 2])).toBe("no");
  });

  it("says when the items were checked already", () => {
    const list = handOver([1, 2], true);
    expect(takeHandedOver(list)).toBe("checked");
    expect(takeHandedOver(list)).toBe("no");
  });
});
