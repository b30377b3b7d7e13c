export * from './cache';
export * from './migrations';
export * from './open';
export * from './search';
export * from './share-links';
export * from './search-rows';
