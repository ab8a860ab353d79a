export * from './agents';
export * from './auth';
export * from './chats';
export * from './common';
export * from './executions';
export * from './keys';
export * from './schedules';
export * from './tasks';
