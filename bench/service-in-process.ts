// The reference service in this process, behind the same interface as the child-process one:
// for the side of a measure whose service does little, where a second process would only add
// scheduling delay to every simulated step on a busy machine.
import { startReferenceService } from '../src/reference-service/index'
import type { ServiceProcess, ServiceProcessOptions } from './service-process'

export async function startServiceInProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const service = await startReferenceService({
    apiKey: options.apiKey,
    port: 0,
    seed: options.seed,
    manualClock: options.manualClock ?? false,
    ...(options.etags === false ? { etags: false } : {}),
    ...(options.compression === false ? { compression: false } : {})
  })
  const { control } = service
  return {
    url: service.url,
    pid: process.pid,
    control: {
      now: async () => control.now(),
      advance: async (ms) => control.advance(ms),
      addTask: async (projectId, input) => control.addTask(projectId, input),
      setTaskStatus: async (taskId, status) => control.setTaskStatus(taskId, status),
      bulkCreate: async (input) => control.bulkCreate(input),
      stats: async () => control.stats(),
      resetStats: async () => control.resetStats()
    },
    close: () => service.close()
  }
}
