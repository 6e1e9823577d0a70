// The window's forms as plain data: what the user typed, checked and turned into request bodies.
// A failed check names the field and keeps every value, so nothing typed is lost.
import { checkBaseUrl, parseBaseUrl, sameOrigin } from '../../shared/base-url'
import { publishingDomainProblem } from '../../shared/hostname'
import { idProblem } from '../../shared/ids'
import { isImageUrl } from '../../shared/image-url'
import { POLLING_BOUNDS } from '../../shared/polling'
import { isEmail, isReturnUrl } from '../../shared/project-fields'
import { MAX_REPLY_LENGTH, type ProviderDescriptor } from '../../shared/provider'
import { type Project, PROJECT_UPDATE_FIELDS, type ProjectCreate, type ProjectUpdate } from '../../shared/service'
import { taskNameProblem, taskRequirementProblem } from '../../shared/task-fields'

export type FieldErrors<K extends string> = Partial<Record<K, string>>
export type Checked<T, K extends string> = { ok: true; value: T } | { ok: false; errors: FieldErrors<K> }

export interface ProjectForm {
  software_product_id: string
  name: string
  description: string
  text_requirement: string
  /** One image URL per row; empty rows are ignored. */
  image_urls: string[]
  user_email: string
  return_url: string
  ref_id: string
}

export type ProjectFormField = keyof ProjectForm | `image_urls.${number}`

export function emptyProjectForm(): ProjectForm {
  return {
    software_product_id: '',
    name: '',
    description: '',
    text_requirement: '',
    image_urls: [''],
    user_email: '',
    return_url: '',
    ref_id: ''
  }
}

function checkCommon(
  form: Pick<ProjectForm, 'name' | 'user_email' | 'return_url'>,
  errors: FieldErrors<ProjectFormField>
): void {
  if (form.name.trim() === '') errors.name = 'Give the project a name.'
  const email = form.user_email.trim()
  if (email !== '' && !isEmail(email)) errors.user_email = 'Enter an e-mail address like name@example.com.'
  const returnUrl = form.return_url.trim()
  if (returnUrl !== '' && !isReturnUrl(returnUrl)) {
    errors.return_url = 'Enter a full address, such as https://example.com/back.'
  }
}

/** The POST /projects body: every filled field, trimmed; the project type is always web. */
export function projectCreateBody(form: ProjectForm): Checked<ProjectCreate, ProjectFormField> {
  const errors: FieldErrors<ProjectFormField> = {}
  checkCommon(form, errors)
  form.image_urls.forEach((url, i) => {
    const trimmed = url.trim()
    if (trimmed !== '' && !isImageUrl(trimmed))
      errors[`image_urls.${i}`] = 'Enter a full http:// or https:// image address.'
  })
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  const body: ProjectCreate = { project_type: 'web' }
  for (const key of [
    'software_product_id',
    'name',
    'description',
    'text_requirement',
    'user_email',
    'return_url',
    'ref_id'
  ] as const) {
    const value = form[key].trim()
    if (value !== '') body[key] = value
  }
  const files = form.image_urls.map((u) => u.trim()).filter((u) => u !== '')
  if (files.length > 0) body.files_requirement = files.map((url) => ({ file_type: 'image', url }))
  return { ok: true, value: body }
}

export type EditForm = Record<(typeof PROJECT_UPDATE_FIELDS)[number], string>

export function editFormOf(project: Project): EditForm {
  return {
    name: project.name,
    description: project.description,
    user_email: project.user_email,
    return_url: project.return_url,
    ref_id: project.ref_id
  }
}

/** The PATCH body: only the fields that changed. An empty body means there is nothing to save. */
export function projectUpdateBody(project: Project, form: EditForm): Checked<ProjectUpdate, keyof EditForm> {
  const errors: FieldErrors<ProjectFormField> = {}
  checkCommon(form, errors)
  if (Object.keys(errors).length > 0) return { ok: false, errors: errors as FieldErrors<keyof EditForm> }
  const update: ProjectUpdate = {}
  for (const key of PROJECT_UPDATE_FIELDS) {
    const value = key === 'description' ? form[key] : form[key].trim()
    if (value !== project[key]) update[key] = value
  }
  return { ok: true, value: update }
}

export interface ConnectionForm {
  name: string
  baseUrl: string
  publishingDomain: string
  apiKey: string
}

export interface ConnectionValue {
  name: string
  baseUrl: string
  publishingDomain: string
  /** Absent when the key field was left empty while editing (the stored key is kept). */
  apiKey?: string
}

/** A new connection, one without a key, or one moved to another origin (its key stays with its origin) needs a key. */
export function keyRequiredFor(existing: { baseUrl: string; hasKey: boolean } | null, typedBaseUrl: string): boolean {
  if (existing === null || !existing.hasKey) return true
  const checked = parseBaseUrl(typedBaseUrl)
  return checked.ok && !sameOrigin(existing.baseUrl, checked.baseUrl)
}

/** A connection as it is saved: base URL by the one rule (src/shared/base-url.ts), domain lowercase. */
export function connectionValue(
  form: ConnectionForm,
  keyRequired: boolean
): Checked<ConnectionValue, keyof ConnectionForm> {
  const errors: FieldErrors<keyof ConnectionForm> = {}
  const name = form.name.trim()
  const checked = checkBaseUrl(form.baseUrl)
  const baseUrl = checked.ok ? checked.baseUrl : form.baseUrl.trim()
  const publishingDomain = form.publishingDomain
    .trim()
    .toLowerCase()
    .replace(/^\.+|\.+$/g, '')
  const apiKey = form.apiKey.trim()
  if (name === '') errors.name = 'Give the connection a name.'
  if (!checked.ok) errors.baseUrl = checked.problem
  if (publishingDomain !== '' && publishingDomainProblem(publishingDomain) !== null) {
    errors.publishingDomain = 'Enter a domain like apps.example.com, without https://.'
  }
  if (keyRequired && apiKey === '') errors.apiKey = 'Enter the API key.'
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return {
    ok: true,
    value: apiKey === '' ? { name, baseUrl, publishingDomain } : { name, baseUrl, publishingDomain, apiKey }
  }
}

/** A new connection moved to another service: the name and address follow it, unless the user typed their own. */
export function withService(
  form: ConnectionForm,
  from: Pick<ProviderDescriptor, 'displayName' | 'defaultBaseUrl'> | null,
  to: Pick<ProviderDescriptor, 'displayName' | 'defaultBaseUrl'>
): ConnectionForm {
  const untouched = (typed: string, preset: string | undefined): boolean =>
    typed.trim() === '' || (preset !== undefined && typed.trim() === preset)
  return {
    ...form,
    name: untouched(form.name, from?.displayName) ? to.displayName : form.name,
    baseUrl: untouched(form.baseUrl, from?.defaultBaseUrl) ? to.defaultBaseUrl : form.baseUrl
  }
}

/** A new connection's service fields show when asked for, and whenever one has a problem, so no message is hidden. */
export function serviceFieldsShown(changeRequested: boolean, errors: FieldErrors<keyof ConnectionForm>): boolean {
  return changeRequested || errors.name !== undefined || errors.baseUrl !== undefined
}

// The polling intervals offered in Settings' menus: a few steps across each field's bounds.
const POLLING_STEPS_MS = {
  activeIntervalMs: [1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 300_000],
  idleIntervalMs: [5_000, 15_000, 30_000, 60_000, 300_000, 900_000, 3_600_000]
} as const

/** A polling field's choices, within the one set of bounds (src/shared/polling.ts), with the current value among them
 * (one set elsewhere, e.g. by editing config.json, stays choosable). */
export function pollingChoices(field: 'activeIntervalMs' | 'idleIntervalMs', current: number): number[] {
  const { min, max } = POLLING_BOUNDS[field]
  const steps = new Set<number>(POLLING_STEPS_MS[field].filter((ms) => ms >= min && ms <= max))
  if (current >= min && current <= max) steps.add(current)
  return [...steps].sort((a, b) => a - b)
}

export interface NewTaskForm {
  name: string
  requirement: string
}

/** A new task's name and requirement, trimmed, by the one rule the app checks again (src/shared/task-fields.ts). */
export function newTaskValue(form: NewTaskForm): Checked<{ name: string; textRequirement: string }, keyof NewTaskForm> {
  const errors: FieldErrors<keyof NewTaskForm> = {}
  const name = form.name.trim()
  const textRequirement = form.requirement.trim()
  const nameProblem = taskNameProblem(name)
  if (nameProblem !== null) errors.name = name === '' ? 'Give the task a short name.' : `The name ${nameProblem}.`
  const textProblem = taskRequirementProblem(textRequirement)
  if (textProblem !== null)
    errors.requirement =
      textRequirement === '' ? 'Say what the agent should do.' : `What the agent should do ${textProblem}.`
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return { ok: true, value: { name, textRequirement } }
}

/** A software product's id as typed, by the one id rule (src/shared/ids.ts) its request is checked with. */
export function productIdValue(text: string): { ok: true; productId: string } | { ok: false; error: string } {
  const productId = text.trim()
  if (productId === '') return { ok: false, error: 'Enter or pick a software product id.' }
  const problem = idProblem(productId)
  return problem === null ? { ok: true, productId } : { ok: false, error: `A software product id ${problem}.` }
}

/** A reply to an agent: trimmed, 1 to MAX_REPLY_LENGTH characters (the bound the app checks again). */
export function replyValue(text: string): Checked<string, 'message'> {
  const message = text.trim()
  if (message === '') return { ok: false, errors: { message: 'Write your reply first.' } }
  if (message.length > MAX_REPLY_LENGTH)
    return {
      ok: false,
      errors: { message: `A reply can be at most ${MAX_REPLY_LENGTH.toLocaleString('en-US')} characters.` }
    }
  return { ok: true, value: message }
}
