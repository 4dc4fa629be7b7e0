import { Injectable } from '@nestjs/common';
import { type DecisionPoint, LogStatsRepository, type ModelSummary } from '#libs/ai-log';
import { CoverageRepository, type CoverageView, EvidenceService } from '#libs/evidence';
import { type CheckpointView } from '../audit-checkpoint.repository.js';
import { AuditCheckpoints, type ChainHead } from '../audit-checkpoints.js';

/** At most this many decisions and fills are drawn on the timeline; the tables count them all. */
const TIMELINE_POINTS = 1_500;

export interface ReportData {
  accountId: string;
  from: Date;
  to: Date;
  generatedAt: Date;
  coverage: CoverageView;
  decisions: DecisionPoint[];
  decisionsTotal: number;
  fills: Array<{ at: Date; orderId: string; symbol: string; side: string; qty: string; price: string; covered: boolean }>;
  fillsTotal: number;
  models: ModelSummary[];
  head: ChainHead;
  checkpoints: CheckpointView[];
}

/** Everything the judges' report shows for one account and window, read through the tables' owners. */
@Injectable()
export class AuditReportService {
  constructor(
    private readonly logs: LogStatsRepository,
    private readonly coverageRows: CoverageRepository,
    private readonly evidence: EvidenceService,
    private readonly checkpoints: AuditCheckpoints,
  ) {}

  /** The window's reads stop when `signal` aborts (the client went away). */
  async gather(accountId: string, from: Date, to: Date, signal?: AbortSignal): Promise<ReportData> {
    const [coverage, decisions, fills, fillsTotal, models, head, checkpoints] = await Promise.all([
      this.evidence.coverage(accountId, { from, to, limit: 200 }, signal),
      this.logs.decisions(accountId, from, to, TIMELINE_POINTS, signal),
      this.coverageRows.fills(accountId, from, to, TIMELINE_POINTS, signal),
      this.coverageRows.countFills(accountId, from, to, signal),
      this.logs.byModel(accountId, from, to, signal),
      this.checkpoints.head(accountId),
      this.checkpoints.list(accountId),
    ]);
    return {
      accountId,
      from,
      to,
      generatedAt: new Date(),
      coverage,
      decisions,
      // The models' counts are every log of the window: counted again, the window was read once more.
      decisionsTotal: models.reduce((sum, m) => sum + m.logs, 0),
      fills: fills.map((f) => {
        const trade = JSON.parse(f.data) as { side?: string; qty?: string; price?: string };
        return { at: f.at, orderId: f.orderId, symbol: f.symbol, side: trade.side ?? '', qty: trade.qty ?? '', price: trade.price ?? '', covered: f.covered };
      }),
      fillsTotal,
      models,
      head,
      checkpoints: checkpoints.slice(-5),
    };
  }
}
