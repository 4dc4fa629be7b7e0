export * from './account.types.js';
export * from './common.types.js';
export * from './market.types.js';
export * from './order.types.js';
export * from './spot.types.js';
export * from './trade.types.js';
