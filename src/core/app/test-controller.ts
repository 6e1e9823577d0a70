// For tests: the controller's ports as the tests against the reference service give them — the real
// client without retries of its own (the monitor's backoff is what is under test), nothing opened,
// a fixed random source, UTC — with whatever a test gives in their place.
import { createServiceClient } from '../client'
import type { ControllerPorts } from './ports'

export function referenceControllerPorts(
  ports: Pick<ControllerPorts, 'settings' | 'secrets'> & Partial<ControllerPorts>
): ControllerPorts {
  return {
    createClient: (connection, apiKey, options) =>
      createServiceClient({ ...options, baseUrl: connection.baseUrl, apiKey, retry: { retries: 0 } }),
    openExternal: async () => undefined,
    random: () => 0.5,
    tz: 0,
    ...ports
  }
}
