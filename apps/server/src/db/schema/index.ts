export * from './catalog.ts';
export * from './clients.ts';
export * from './identity.ts';
export * from './locations.ts';
export * from './logs.ts';
export * from './personnel.ts';
export * from './preferences.ts';
export * from './sms.ts';
