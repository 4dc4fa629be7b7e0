// Where the end-to-end tests find PostgreSQL and Redis. jest.config.js checked that both answer before any test file
// ran (and skipped every end-to-end test, saying so, or failed under CI=true): tests do not check again.
export { PG_URL, REDIS_URL } from './required-services.js';
