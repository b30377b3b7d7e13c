export * from './contract';
export * from './transport';
export * from './imports';
