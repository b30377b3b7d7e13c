export * from './client';
export * from './credentials';
export * from './errors';
export * from './signature';
