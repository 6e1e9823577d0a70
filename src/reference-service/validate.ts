// Request bodies of the interface, checked field by field. Every failure names the field, and
// nothing is applied unless the whole body is valid.
import { isImageUrl } from '../shared/image-url'
import { isReturnUrl } from '../shared/project-fields'
import { type FileRequirement, PROJECT_UPDATE_FIELDS, type ProjectCreate, type ProjectUpdate } from '../shared/service'
import { badRequest } from './api-error'
import type { TaskCreate } from './types'

type Body = Record<string, unknown>

export function asObject(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('body', 'The request body must be a JSON object.')
  }
  return value as Body
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

function optionalString(body: Body, field: string): string | undefined {
  const value = body[field]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw badRequest(field, `"${field}" must be a string.`)
  return value
}

function checkEmail(value: string | undefined, field: string): void {
  if (value !== undefined && value !== '' && !EMAIL.test(value))
    throw badRequest(field, `"${field}" is not a valid e-mail address.`)
}

function filesRequirement(value: unknown): FileRequirement[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) throw badRequest('files_requirement', '"files_requirement" must be an array.')
  return value.map((entry: unknown, i) => {
    const at = `files_requirement[${i}]`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw badRequest(at, `"${at}" must be an object with file_type and url.`)
    const { file_type, url } = entry as Body
    if (file_type !== 'image')
      throw badRequest(`${at}.file_type`, `"${at}.file_type" must be "image": only image files are accepted.`)
    if (typeof url !== 'string' || !isImageUrl(url)) {
      throw badRequest(
        `${at}.url`,
        `"${at}.url" must be an http or https URL of an image (a path ending in .png, .jpg, .jpeg, .gif, .webp, .svg, .avif, .bmp or .ico).`
      )
    }
    return { file_type, url }
  })
}

function requiredString(body: Body, field: string): string {
  const value = optionalString(body, field)
  if (value === undefined || value.trim() === '')
    throw badRequest(field, `"${field}" is required and must be a non-empty string.`)
  return value
}

export function parseTaskCreate(raw: unknown): TaskCreate {
  const body = asObject(raw)
  const out: TaskCreate = {
    project_id: requiredString(body, 'project_id'),
    name: requiredString(body, 'name'),
    text_requirement: requiredString(body, 'text_requirement')
  }
  const flow = optionalString(body, 'flow')
  if (flow !== undefined) out.flow = flow
  return out
}

/** The query of GET /projects: the product is required, the order ASC or DESC (default DESC). */
export function parseProjectListQuery(query: URLSearchParams): { productId: string; order: 'ASC' | 'DESC' } {
  const productId = query.get('software_product_id')
  if (productId === null || productId.trim() === '') {
    throw badRequest('software_product_id', '"software_product_id" is required: the product whose projects to list.')
  }
  const order = (query.get('order_by') ?? 'DESC').toUpperCase()
  if (order !== 'ASC' && order !== 'DESC') throw badRequest('order_by', '"order_by" must be ASC or DESC.')
  return { productId, order }
}

export function parseProjectCreate(raw: unknown): ProjectCreate {
  const body = asObject(raw)
  const out: ProjectCreate = {}
  for (const field of [
    'software_product_id',
    'name',
    'description',
    'text_requirement',
    'user_email',
    'return_url',
    'ref_id'
  ] as const) {
    const value = optionalString(body, field)
    if (value !== undefined) out[field] = value
  }
  if (body.project_type !== undefined) {
    if (body.project_type !== 'web') throw badRequest('project_type', '"project_type" must be "web".')
    out.project_type = 'web'
  }
  const files = filesRequirement(body.files_requirement)
  if (files !== undefined) out.files_requirement = files
  checkEmail(out.user_email, 'user_email')
  checkReturnUrl(out.return_url)
  return out
}

/** The interface's "URL the prebuilt interface uses to send the user back to the client application": an app's own link too. */
function checkReturnUrl(value: string | undefined): void {
  if (value !== undefined && value !== '' && !isReturnUrl(value)) {
    throw badRequest(
      'return_url',
      '"return_url" must be an absolute URL (an http(s) page or an app link such as agent-tray://projects/ID), not a script or file URL.'
    )
  }
}

export function parseProjectUpdate(raw: unknown): ProjectUpdate {
  const body = asObject(raw)
  const allowed: readonly string[] = PROJECT_UPDATE_FIELDS
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw badRequest(key, `"${key}" cannot be updated; only ${PROJECT_UPDATE_FIELDS.join(', ')} can.`)
    }
  }
  const out: ProjectUpdate = {}
  for (const field of PROJECT_UPDATE_FIELDS) {
    const value = optionalString(body, field)
    if (value !== undefined) out[field] = value
  }
  checkEmail(out.user_email, 'user_email')
  checkReturnUrl(out.return_url)
  return out
}

export function parsePublish(raw: unknown): string {
  const body = asObject(raw)
  if (typeof body.hostname !== 'string') throw badRequest('hostname', '"hostname" is required and must be a string.')
  return body.hostname
}
