import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';

export declare const defaultSchemaPath: string;
export declare const defaultMigrationsDir: string;
export declare const LOCKFILE_NAME: string;
export declare const LOCKFILE_CONTENT: string;

export interface EngineOptions {
  schemaPath?: string;
  /** The engine's main database; default: a throwaway in-memory PGlite. */
  databaseUrl?: string;
  log?: (message: string) => void;
}

export declare function loadSchemaEngineModule(): Promise<typeof import('@prisma/schema-engine-wasm')>;
export declare function readMigrationsList(migrationsDir?: string): Promise<MigrationList>;
export declare function withSchemaEngine<T>(fn: (engine: SchemaEngine) => Promise<T>, options?: EngineOptions): Promise<T>;
export declare function diffMigrationsToSchema(options?: EngineOptions & { migrationsDir?: string }): Promise<{ changed: boolean; sql: string }>;
