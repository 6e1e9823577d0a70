// The app's id: electron-builder's appId (electron-builder.yml), and on Windows the
// AppUserModelId that toasts carry, so they show the app's name and follow its settings.
export const APP_ID = 'dev.agenttray.app'
