export { CheckpointMutatedError, MemorySaverAssertImmutable } from "./assert-immutable-saver.js";
export { FakeChatModel, FakeChatModelExhaustedError, type FakeChatModelFields } from "./fake-chat-model.js";
export {
  assertSaverConformance,
  findDifference,
  runSaverConformance,
  type SaverCapability,
  type SaverConformanceCase,
  SaverConformanceError,
  type SaverConformanceOptions,
  type SaverConformanceReport,
  SaverConformanceSkipped,
  type SaverFactory,
  saverConformanceCases,
} from "./saver-conformance.js";
