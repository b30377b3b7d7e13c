export * from './contract';
export * from './account';
export * from './transport';
export * from './imports';
export * from './media';
export * from './settings';
export * from './shell';
export * from './sessions';
