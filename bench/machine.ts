// The machine the figures came from: they mean little without it.
import os from 'node:os'

export interface MachineInfo {
  cpu_model: string
  cores: number
  total_memory_mb: number
  load_average_1m: number
  platform: string
  node: string
  date: string
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus()
  return {
    cpu_model: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    total_memory_mb: Math.round(os.totalmem() / 1024 / 1024),
    load_average_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    date: new Date().toISOString()
  }
}
