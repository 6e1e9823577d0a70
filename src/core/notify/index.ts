export { decideNotifications, inQuietHours, notifiableTransition, notificationsPaused } from './policy'
export type { Notification, NotificationBatch, NotificationContext } from './policy'
