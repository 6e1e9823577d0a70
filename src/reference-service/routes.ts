// The seven endpoints of docs/service-interface.md §4, plus the prebuilt page that `prebuilt_url`
// points at (a browser page: no API key).
import { type ApiError, notFound } from './api-error'
import { etagMatches, json, notModified, type Reply, weakEtag } from './http'
import type { ReferenceState } from './state'
import {
  parseProjectCreate,
  parseProjectListQuery,
  parseProjectUpdate,
  parsePublish,
  parseTaskCreate
} from './validate'

export interface Route {
  /** Stats key, e.g. `/projects/{id}`. */
  key: string
  /** One of the real service's endpoints outside the interface document (switched off with `extensions: false`). */
  extension?: boolean
  pattern: RegExp
  auth: boolean
  methods: Record<
    string,
    (store: ReferenceState, id: string, body: () => Promise<unknown>, request: RouteRequest) => Promise<Reply> | Reply
  >
}

export interface RouteRequest {
  ifNoneMatch?: string
  query: URLSearchParams
}

const projectOr404 = (id: string): ApiError => notFound(`No project with id "${id}".`)
const taskOr404 = (id: string): ApiError => notFound(`No task with id "${id}".`)

export const ROUTES: Route[] = [
  {
    key: '/projects',
    pattern: /^\/projects$/,
    auth: true,
    methods: {
      POST: async (store, _id, body) => json(201, store.createProject(parseProjectCreate(await body())))
    }
  },
  {
    // Outside the interface document: the real service lists a product's projects.
    key: '/projects?software_product_id',
    extension: true,
    pattern: /^\/projects$/,
    auth: true,
    methods: {
      GET: (store, _id, _body, request) => {
        const { productId, order } = parseProjectListQuery(request.query)
        return json(200, store.listProjectsOfProduct(productId, order))
      }
    }
  },
  {
    // Outside the interface document: the real service starts a task.
    key: '/tasks',
    extension: true,
    pattern: /^\/tasks$/,
    auth: true,
    methods: {
      POST: async (store, _id, body) => {
        const input = parseTaskCreate(await body())
        const task = store.createTask(input)
        if (!task) throw projectOr404(input.project_id)
        return json(201, task)
      }
    }
  },
  {
    key: '/projects/{id}',
    pattern: /^\/projects\/([^/]+)$/,
    auth: true,
    methods: {
      GET: (store, id) => {
        const p = store.getProject(id)
        if (!p) throw projectOr404(id)
        return json(200, p)
      },
      PATCH: async (store, id, body) => {
        if (!store.getProject(id)) throw projectOr404(id)
        const p = store.updateProject(id, parseProjectUpdate(await body()))
        if (!p) throw projectOr404(id)
        return json(200, p)
      }
    }
  },
  {
    key: '/projects/{id}/tasks',
    pattern: /^\/projects\/([^/]+)\/tasks$/,
    auth: true,
    methods: {
      GET: (store, id, _body, request) => {
        // A list known not to have changed is answered 304 without being built again.
        const known = store.currentListEtag(id)
        if (known !== undefined && etagMatches(request.ifNoneMatch, known)) return notModified(known)
        const listed = store.listTasksUntil(id)
        if (!listed) throw projectOr404(id)
        const reply = json(200, listed.tasks)
        const etag = weakEtag(reply.body)
        store.rememberListEtag(id, etag, listed.until)
        return { ...reply, etag }
      }
    }
  },
  {
    key: '/projects/{id}/publish',
    pattern: /^\/projects\/([^/]+)\/publish$/,
    auth: true,
    methods: {
      POST: async (store, id, body) => {
        if (!store.getProject(id)) throw projectOr404(id)
        const result = store.publish(id, parsePublish(await body()))
        if (!result) throw projectOr404(id)
        return json(200, result)
      }
    }
  },
  {
    key: '/tasks/{id}/steps',
    pattern: /^\/tasks\/([^/]+)\/steps$/,
    auth: true,
    methods: {
      GET: (store, id) => {
        const steps = store.steps(id)
        if (!steps) throw taskOr404(id)
        return json(200, steps)
      }
    }
  },
  {
    key: '/tasks/{id}/steps-and-usages',
    pattern: /^\/tasks\/([^/]+)\/steps-and-usages$/,
    auth: true,
    methods: {
      GET: (store, id) => {
        const result = store.stepsAndUsages(id)
        if (!result) throw taskOr404(id)
        return json(200, result)
      }
    }
  },
  {
    key: '/prebuilt/{id}',
    pattern: /^\/prebuilt\/([^/]+)$/,
    auth: false,
    methods: {
      GET: (store, id) => {
        const p = store.getProject(id)
        if (!p) throw projectOr404(id)
        return {
          status: 200,
          contentType: 'text/html; charset=utf-8',
          headers: PREBUILT_PAGE_HEADERS,
          body: prebuiltPage(p.name, p.return_url)
        }
      }
    }
  }
]

/** The route for a path and method, and every method the path allows (GET /projects is an extension, POST not). */
export function matchRoute(
  path: string,
  method: string,
  extensions = true
): { route: Route; id: string; allow: string[] } | undefined {
  const candidates = ROUTES.filter((route) => (extensions || !route.extension) && route.pattern.test(path))
  const route = candidates.find((r) => method in r.methods) ?? candidates[0]
  const m = route?.pattern.exec(path)
  if (!route || !m) return undefined
  const allow = candidates.flatMap((r) => Object.keys(r.methods))
  try {
    return { route, id: decodeURIComponent(m[1] ?? ''), allow }
  } catch {
    return undefined
  }
}

/** The prebuilt page may load, run, embed, submit and be framed by nothing; its text is escaped too, and the policy
 *  holds if escaping ever slips. */
export const PREBUILT_PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const PREBUILT_PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': PREBUILT_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)

function prebuiltPage(name: string, returnUrl: string): string {
  const back = returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Back to the app</a></p>` : ''
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(name)} · agent</title></head><body><main><h1>${escapeHtml(name)}</h1><p>This is the reference service's stand-in for the prebuilt agent interface.</p>${back}</main></body></html>`
}
