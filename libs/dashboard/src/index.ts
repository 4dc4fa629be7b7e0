export * from './dashboard-session.js';
export * from './queue-dashboard.js';
