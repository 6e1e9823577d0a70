export { decideNotifications, inQuietHours, notifiableTransition } from './policy'
export { pauseInEffect } from './pause'
export type { Notification, NotificationBatch, NotificationContext } from './policy'
