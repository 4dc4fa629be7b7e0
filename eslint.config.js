import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// typescript-eslint's recommended rules on the sources, the tests and the scripts; formatting is Prettier's
// (`npm run format:check`), not ESLint's.
export default tseslint.config(
  { ignores: ['**/dist/', '**/node_modules/', 'coverage/', 'libs/database/src/generated/', '.data/', '.venv/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        performance: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        SharedArrayBuffer: 'readonly',
        Atomics: 'readonly',
        WebAssembly: 'readonly',
      },
    },
    rules: {
      // `_name` marks a parameter a signature needs and the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests read JSON answers of every shape.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
