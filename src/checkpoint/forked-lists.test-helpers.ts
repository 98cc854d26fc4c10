/**
 * A thread whose long message list forks into three branches from its middle, the branches
 * written in turns so that their versions interleave with each other and with the trunk's. A
 * saver that reads a splice chain with a range scan of the versions below its head finds other
 * branches' versions in that range; every checkpoint must still read back its own list.
 * Shared by the SQLite and PostgreSQL saver tests.
 */
import { expect } from "vitest";
import type { BaseCheckpointSaver } from "../index.js";
import { HumanMessage } from "../messages/index.js";

export async function checkForkedLists(
  saver: BaseCheckpointSaver,
  freshReader: () => BaseCheckpointSaver,
  threadId = "forks",
): Promise<void> {
  const put = async (parent: string | undefined, id: string, messages: HumanMessage[], version: string) => {
    await saver.put(
      {
        configurable: {
          thread_id: threadId,
          checkpoint_ns: "",
          ...(parent ? { checkpoint_id: parent } : {}),
        },
      },
      {
        v: 4,
        id,
        ts: "2024-01-01T00:00:00.000Z",
        channel_values: { messages },
        channel_versions: { messages: version },
        versions_seen: {},
      },
      { source: "loop", step: 0, parents: {} },
      { messages: version },
    );
  };
  const id = (branch: number, i: number) => `1ef00000-0000-6000-8${branch}00-${String(i).padStart(12, "0")}`;
  const expected = new Map<string, string[]>();
  let trunk: HumanMessage[] = [];
  let version: string | undefined;
  const versions: string[] = [];
  for (let i = 0; i < 120; i++) {
    trunk = [...trunk, new HumanMessage({ content: `trunk ${i}`, id: `t-${i}` })];
    version = saver.getNextVersion(version) as string;
    versions.push(version);
    await put(i === 0 ? undefined : id(0, i - 1), id(0, i), trunk, version);
    expected.set(
      id(0, i),
      trunk.map((m) => String(m.content)),
    );
  }
  // three branches forked from the middle, written in turns so their versions interleave
  const branches = [1, 2, 3].map(() => ({ messages: trunk.slice(0, 60), version: versions[59] as string }));
  for (let i = 0; i < 40; i++) {
    for (const [b, branch] of branches.entries()) {
      branch.messages = [...branch.messages, new HumanMessage({ content: `b${b} ${i}`, id: `b${b}-${i}` })];
      branch.version = saver.getNextVersion(branch.version) as string;
      await put(i === 0 ? id(0, 59) : id(b + 1, i - 1), id(b + 1, i), branch.messages, branch.version);
      expected.set(
        id(b + 1, i),
        branch.messages.map((m) => String(m.content)),
      );
    }
  }
  const reader = freshReader();
  for (const [checkpointId, contents] of expected) {
    const tuple = await reader.getTuple({
      configurable: { thread_id: threadId, checkpoint_id: checkpointId },
    });
    const messages = tuple?.checkpoint.channel_values.messages as HumanMessage[];
    expect(messages.map((m) => String(m.content))).toEqual(contents);
  }
}
