export * from './watched-redis.js';
