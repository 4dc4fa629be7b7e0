export * from './audit-checkpoints.service.js';
export * from './audit-export.js';
export * from './audit-signer.js';
export * from './audit.module.js';
export * from './audit-window.js';
export * from './report/audit-report.service.js';
export * from './report/report-html.js';
