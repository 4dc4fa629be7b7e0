export * from './console-assets.js';
export * from './console-page.js';
export * from './console.controller.js';
export * from './console.module.js';
