export * from './enums';
export * from './envelope';
export * from './errors';
export * from './resources';
export * from './route';
export * from './routes';
export * from './realtime';
