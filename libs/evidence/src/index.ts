export * from './coverage-query.dto.js';
export { CoverageRepository, type FillRow, type OrderCoverage } from './coverage.repository.js';
export * from './evidence.module.js';
export * from './evidence-sync.service.js';
export * from './evidence.service.js';
export type * from './evidence.views.js';
