// The app controller's public face: what src/main and the e2e host code against.
export { createAppController, DEMO_CONNECTION_ID } from './controller'
export type { AppController } from './controller'
export type { AppControllerDeps, AppSecrets, DemoService } from './deps'
export { dispatch } from './dispatch'
export type { DispatchOptions } from './dispatch'
export { AppError, isAppError } from './errors'
export { requestSchemas, isInvokeChannel } from './requests'
