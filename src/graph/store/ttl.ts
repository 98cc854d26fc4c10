import { InvalidArgumentError } from "../../shared/index.js";
import type { PutOperation, TTLConfig } from "./types.js";

const MINUTE_MS = 60_000;

function checkMinutes(name: string, value: number | undefined): void {
  if (value !== undefined && !(typeof value === "number" && value > 0 && Number.isFinite(value))) {
    throw new InvalidArgumentError(`ttl.${name} is a positive number of minutes, got ${String(value)}.`);
  }
}

/**
 * The expiry rules of a store, from its {@link TTLConfig}: the TTL of a write, when an item
 * expires, whether a read restarts its TTL, and the periodic sweep that deletes expired items.
 * Expired items are invisible at once; the sweep only reclaims their space.
 *
 * @example
 * ```ts
 * const policy = new StoreTtlPolicy({ defaultTtl: 60, sweepIntervalMinutes: 5 });
 * const minutes = policy.ttlOf(putOperation); // 60 unless the put gave its own ttl
 * const expiresAt = policy.expiresAt(minutes, Date.now()); // epoch milliseconds, or undefined
 * policy.startSweeper(() => deleteExpiredRows());
 * ```
 */
export class StoreTtlPolicy {
  readonly config: TTLConfig | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;

  constructor(config: TTLConfig | undefined) {
    checkMinutes("defaultTtl", config?.defaultTtl);
    checkMinutes("sweepIntervalMinutes", config?.sweepIntervalMinutes);
    this.config = config;
  }

  /** Minutes a write lives: its own `options.ttl`, else the default; undefined for never. */
  ttlOf(op: PutOperation): number | undefined {
    const ttl = op.options?.ttl;
    if (ttl === null) return undefined;
    return ttl ?? this.config?.defaultTtl;
  }

  /** When an item written (or refreshed) at `now` with `ttlMinutes` expires, in epoch ms. */
  expiresAt(ttlMinutes: number | undefined, now: number): number | undefined {
    return ttlMinutes === undefined ? undefined : now + ttlMinutes * MINUTE_MS;
  }

  /** Whether a read restarts the TTL of what it returns (default: `refreshOnRead`, itself default true). */
  refreshOnRead(requested: boolean | undefined): boolean {
    return requested ?? this.config?.refreshOnRead ?? true;
  }

  /**
   * Calls `sweep` every `sweepIntervalMinutes` (when configured) until {@link stopSweeper}; the
   * store's own first use (`setup()`, its first write) starts it this way. Once stopped, the
   * sweep stays stopped whatever the store does next, as LangGraph.js's `PostgresStore` keeps it
   * after `stop()`; only {@link restartSweeper} (the store's `start()`) starts it again. The timer
   * does not keep a Node process alive; a failing sweep is retried next time.
   */
  startSweeper(sweep: () => unknown): void {
    if (this.stopped) return;
    const minutes = this.config?.sweepIntervalMinutes;
    if (minutes === undefined || this.timer !== undefined) return;
    this.timer = setInterval(() => {
      Promise.resolve()
        .then(sweep)
        .catch(() => {});
    }, minutes * MINUTE_MS);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** {@link startSweeper}, after a {@link stopSweeper} too: a store's explicit `start()`. */
  restartSweeper(sweep: () => unknown): void {
    this.stopped = false;
    this.startSweeper(sweep);
  }

  /** Stops the sweeps, for good unless {@link restartSweeper} is called. */
  stopSweeper(): void {
    this.stopped = true;
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
