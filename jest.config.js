import { readFileSync } from 'node:fs';

// Jest runs the TypeScript sources as native ES modules (NestJS 12 is ESM-only), compiled by SWC with the build's
// settings (.swcrc) and source maps inline for stack traces.
const swc = { ...JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8')), sourceMaps: 'inline' };

export default {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
};
