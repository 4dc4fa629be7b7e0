export * from './admin-auth.guard.js';
export * from './admin-token.service.js';
export * from './accounts.module.js';
export * from './accounts.repository.js';
export * from './agent-access.service.js';
export * from './agent-auth.guard.js';
export * from './agent-key.js';
