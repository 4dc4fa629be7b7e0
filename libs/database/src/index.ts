export * from './database.module.js';
export * from './embedded-database.js';
export * from './prepare-database.js';
export * from './prisma.service.js';
export * from './sql-pool.js';
export * from './migrator.js';
export type * from './columns.js';
export { AiLogStatus, Prisma } from './generated/client.js';
export type { AiLog, UploadAttempt, Account, AgentKey, AuditCheck, AuditCheckpoint } from './generated/client.js';
