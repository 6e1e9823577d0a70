// The app controller's public face: what src/main and the e2e host code against.
export { AppError, isAppError } from './app-error'
export type { AppController } from './controller'
export { createAppController, DEMO_CONNECTION_ID } from './controller'
export type { DispatchOptions } from './dispatch'
export { dispatch } from './dispatch'
export type { AppPorts, AppSecrets, ControllerPorts, DemoService } from './ports'
export { isInvokeChannel, requestSchemas } from './requests'
