// The monitor's public surface, for the main process, the command and tests.
export { Monitor, createMonitor, readError } from './monitor'
export type { MonitorCycle, MonitorEvents, MonitorOptions, TaskSource, WatchOptions } from './monitor'
export { ManualClock, flushMicrotasks, systemClock } from './clock'
export type { Clock, TimerHandle } from './clock'
export { Scheduler, nextDelay, dueProjects, nextWakeAt, DEFAULT_SCHEDULE_OPTIONS } from './scheduler'
export type { PollOutcome, ScheduleEntry, ScheduleOptions } from './scheduler'
export { diffProject, snapshotTask } from './diff'
export { checkBudget } from './budget'
