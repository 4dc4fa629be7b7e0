export * from './verify-page.js';
export * from './verify-page.controller.js';
export * from './verify-page.module.js';
export { VERIFY_SCRIPT } from './verify-script.js';
