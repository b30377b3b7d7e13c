export * from './contract';
export * from './transport';
export * from './imports';
export * from './settings';
export * from './shell';
