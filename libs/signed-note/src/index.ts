export * from './checkpoint.js';
export * from './cosignature.js';
export * from './errors.js';
export * from './keys.js';
export * from './note.js';
export * from './proof-file.js';
export * from './signed-checkpoint.js';
