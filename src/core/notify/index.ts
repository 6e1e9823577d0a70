export { pauseInEffect } from './pause'
export type { Notification, NotificationBatch, NotificationContext } from './policy'
export { decideNotifications, inQuietHours, notifiableTransition } from './policy'
