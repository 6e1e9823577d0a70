// The exit codes of `agent-tray`, one per class of failure, so scripts can tell them apart.
// Documented here and in `agent-tray --help`.
import type { ServiceErrorKind } from '../shared/monitor'

export const EXIT = {
  /** Success (for `watch --task --exit-status`: the task completed). */
  ok: 0,
  /** `watch --task --exit-status`: the task ended failed or cancelled. */
  taskNotCompleted: 1,
  /** The command line was wrong: unknown option, missing argument, `--api-key`, bad value. */
  usage: 2,
  /** No API key, or the service rejected it. */
  auth: 3,
  /** The project or task does not exist. */
  notFound: 4,
  /** Nothing answered at the base URL, or it answered too slowly. */
  network: 5,
  /** The service answered something that is not a valid response, or records the command could not read (the rest were printed). */
  invalidResponse: 6,
  /** Publishing failed: the hostname was refused or the service reported `failed`. */
  publishFailed: 7,
  /** No keychain could be reached to read or store the API key. */
  keychainUnavailable: 8,
  /** The service is rate limiting or failing (429, 5xx). */
  service: 9,
  /** The service refused the request as invalid (other 4xx), or does not offer it (an optional endpoint). */
  refused: 10,
  /** A bug in agent-tray itself. */
  internal: 11,
  /** config.json or state.json cannot be used: a directory or an unreadable file in its place, a directory that cannot be written, a lock held too long. */
  settingsFiles: 12,
  /** The task is busy (the service answered 409: an agent still running) and took nothing, e.g. a reply: send it again
   *  once it has finished. */
  busy: 13,
  /** Interrupted (Ctrl-C), by shell convention 128 + SIGINT. */
  interrupted: 130
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

export function exitCodeForServiceError(kind: ServiceErrorKind): ExitCode {
  switch (kind) {
    case 'auth':
      return EXIT.auth
    case 'not_found':
      return EXIT.notFound
    case 'network':
    case 'timeout':
      return EXIT.network
    case 'invalid_response':
      return EXIT.invalidResponse
    case 'publish_failed':
      return EXIT.publishFailed
    case 'rate_limited':
    case 'server':
      return EXIT.service
    case 'bad_request':
    case 'unsupported':
      return EXIT.refused
    default:
      return EXIT.internal
  }
}

/** The table printed at the end of `agent-tray --help`. */
export const EXIT_CODES_HELP = `Exit codes:
  0    success (watch --task --exit-status: the task completed)
  1    watch --task --exit-status: the task ended failed or cancelled
  2    usage error (bad option or argument, --api-key given)
  3    authentication: no API key, or the key was rejected
  4    not found: no such project or task
  5    network error or timeout
  6    invalid response from the service, or records it sent that could not be
       read (the readable ones are printed, each skipped one is warned about)
  7    publish failed
  8    keychain unavailable
  9    service busy or failing (rate limited, 5xx)
  10   request refused by the service (other 4xx), or a feature it does not offer
  11   internal error
  12   settings files unusable (config.json or state.json is a directory or cannot be read or written)
  13   the task is busy (an agent still running) and took nothing: send the reply again once it has finished
  130  interrupted`
