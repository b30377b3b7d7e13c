export * from './contract';
export * from './transport';
