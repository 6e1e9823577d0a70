// For tests: the ServiceError a call ends with (the test fails if it resolves or throws anything else).
import { expect } from 'vitest'
import { ServiceError } from './service-error'

export async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err
  )
  expect(e).toBeInstanceOf(ServiceError)
  return e as ServiceError
}
