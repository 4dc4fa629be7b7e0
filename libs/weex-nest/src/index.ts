export * from './weex.module.js';
