export * from './orgs';
export * from './leads';
export * from './sending';
export * from './webhooks';
export * from './ai';
export * from './inbound';
export * from './suppressions';
export * from './agency';
