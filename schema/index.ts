export * from './orgs';
export * from './leads';
export * from './sending';
export * from './webhooks';
export * from './ai';
