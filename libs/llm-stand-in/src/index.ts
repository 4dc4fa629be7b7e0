export * from './stand-in-answers.js';
export * from './stand-in-model.js';
