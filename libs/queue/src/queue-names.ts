/** Every queue of the service. */
export enum QueueName {
  AiLogUpload = 'ai-log-upload',
  /** The workers' periodic work, one job scheduler per kind (PeriodicJob): kept apart from the uploads' wake-ups. */
  Periodic = 'periodic',
}

/** Every job, with its payload type in JobPayload. */
export enum JobName {
  /** Wakes one account's drainer, which uploads the account's due logs from PostgreSQL. */
  DrainAccount = 'drain-account',
}

export interface JobPayload {
  [JobName.DrainAccount]: { accountId: string };
}

/** The periodic queue's jobs: each is also the id of the job scheduler that makes it, and carries no data. */
export enum PeriodicJob {
  Relay = 'relay',
  HoldProbe = 'hold-probe',
  EvidenceSync = 'evidence-sync',
  AuditCheck = 'audit-check',
  AuditCheckpoint = 'audit-checkpoint',
  IdempotencyPurge = 'idempotency-purge',
  TraceDecisions = 'trace-decisions',
}
