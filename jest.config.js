import { readFileSync } from 'node:fs';
import { missingServices } from './test/support/required-services.js';

// Jest runs the TypeScript sources as native ES modules (NestJS 12 is ESM-only), compiled by SWC with the build's
// settings (.swcrc) and source maps inline for stack traces.
const swc = { ...JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8')), sourceMaps: 'inline' };

const common = {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

// The end-to-end tests need PostgreSQL and Redis: decided once, here. Without them the whole e2e project is skipped,
// saying so; with CI=true that is a failure, so CI never passes by skipping. Tests themselves never check.
const missing = await missingServices();
if (missing.length > 0) {
  const message = `cannot reach ${missing.join(' and ')}: start PostgreSQL and Redis (see .ci/run)`;
  if (process.env.CI === 'true') throw new Error(`${message}; with CI=true this is a failure, not a skip`);
  process.stderr.write(`\nSKIPPED: every end-to-end test (test/*.e2e-spec.ts): ${message}\n\n`);
}

// Two projects: `npm run test:unit` (next to the code, no services) and `npm run test:e2e` (test/, against PostgreSQL,
// Redis, the simulator and Chromium); `npm test` runs both.
export default {
  // A test waits for conditions, never for a time; jest's 5 s default was a time limit that a loaded machine broke.
  testTimeout: 60_000,
  // One worker (not the main process), replaced once it holds more than this after a file: ESM test files leave their
  // module graphs behind, and 170 files in one process ran out of its 4 GB heap.
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    ...(missing.length === 0 ? [{ ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] }] : []),
  ],
};
