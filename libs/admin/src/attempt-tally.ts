import { Injectable } from '@nestjs/common';
import { type AttemptGroup, LATENCY_BUCKETS_MS, LogStatsRepository, type TallyMark } from '#libs/ai-log';

/**
 * Every upload attempt recorded, by outcome, HTTP status and exchange code, counted by this process as the receipt
 * chains grow: each refresh reads the attempts since the last one (LogStatsRepository.attemptsSince), so that a scrape
 * costs the attempts since the last scrape, not the history. The first refresh counts them all, `STEP` per account and
 * statement. A chain that is not the one counted (its head behind the mark, or another receipt at the mark: a
 * database restored from a backup) starts the count again.
 */
@Injectable()
export class AttemptTally {
  /** Attempts per account and statement: about 20 ms of PostgreSQL, far inside any statement timeout. */
  static readonly STEP = 20_000;
  private counted = new Map<string, TallyMark>();
  private readonly groups = new Map<string, AttemptGroup>();
  private pending?: Promise<void>;

  constructor(private readonly stats: LogStatsRepository) {}

  /** Callers while a refresh runs share it: two from the same marks would each add the attempts since them. */
  refresh(): Promise<void> {
    return (this.pending ??= this.countNew().finally(() => (this.pending = undefined)));
  }

  private async countNew(): Promise<void> {
    for (let restarts = 0; ;) {
      const { marks, groups, rewound, more } = await this.stats.attemptsSince(this.counted, AttemptTally.STEP);
      if (rewound) {
        this.counted = new Map();
        this.groups.clear();
        // Twice in one refresh: the chains changed under the count. The scrape fails; the next one starts afresh.
        if (++restarts > 1) throw new Error('the receipt chains changed while their attempts were counted');
        continue;
      }
      this.counted = marks;
      for (const group of groups) this.add(group);
      if (!more) return;
    }
  }

  private add(group: AttemptGroup): void {
    const key = JSON.stringify([group.outcome, group.httpStatus, group.exchangeCode]);
    const sum = this.groups.get(key);
    this.groups.set(
      key,
      sum
        ? {
            ...sum,
            count: sum.count + group.count,
            sumMs: String(BigInt(sum.sumMs) + BigInt(group.sumMs)),
            buckets: sum.buckets.map((n, i) => n + group.buckets[i]),
          }
        : group,
    );
  }

  /** The attempts by outcome, HTTP status and exchange code. */
  answers(): AttemptGroup[] {
    return [...this.groups.values()];
  }

  /** The latency histogram by outcome: cumulative counts at each bound of LATENCY_BUCKETS_MS, the count and the sum in ms. */
  histograms(): Array<{ outcome: string; buckets: number[]; count: number; sumMs: number }> {
    const byOutcome = new Map<string, { outcome: string; buckets: number[]; count: number; sumMs: number }>();
    for (const group of this.groups.values()) {
      const sum = byOutcome.get(group.outcome) ?? { outcome: group.outcome, buckets: LATENCY_BUCKETS_MS.map(() => 0), count: 0, sumMs: 0 };
      group.buckets.forEach((n, i) => (sum.buckets[i] += n));
      sum.count += group.count;
      sum.sumMs += Number(group.sumMs);
      byOutcome.set(group.outcome, sum);
    }
    return [...byOutcome.values()].sort((a, b) => a.outcome.localeCompare(b.outcome));
  }
}
