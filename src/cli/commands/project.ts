// `project create|get|update`: the project endpoints (docs/service-interface.md §4.1–4.3).
import { IMAGE_EXTENSIONS, isImageUrl } from '../../shared/image-url'
import { isEmail, isReturnUrl } from '../../shared/project-fields'
import type { ProjectCreate, ProjectUpdate } from '../../shared/service'
import { PROJECT_UPDATE_FIELDS } from '../../shared/service'
import { usageError } from '../cli-error'
import { type Context, printJson, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { renderProject } from '../render'
import { oneLine } from '../table'
import { addWatched, watchedProjects } from './watch-list'

export interface CreateFlags {
  softwareProductId?: string
  name?: string
  description?: string
  projectType?: string
  textRequirement?: string
  fileUrl?: string[]
  userEmail?: string
  returnUrl?: string
  refId?: string
  watch?: boolean
}

export function createBody(flags: CreateFlags): ProjectCreate {
  const body: ProjectCreate = {}
  if (flags.softwareProductId !== undefined) body.software_product_id = flags.softwareProductId
  if (flags.name !== undefined) body.name = flags.name
  if (flags.description !== undefined) body.description = flags.description
  if (flags.projectType !== undefined) {
    if (flags.projectType !== 'web')
      throw usageError(`--project-type must be "web" (the only type the service knows), not "${flags.projectType}".`)
    body.project_type = 'web'
  }
  if (flags.textRequirement !== undefined) body.text_requirement = flags.textRequirement
  if (flags.fileUrl && flags.fileUrl.length > 0) {
    for (const url of flags.fileUrl) {
      if (!isImageUrl(url))
        throw usageError(
          `--file-url must be the http(s) URL of an image (a path ending in .${IMAGE_EXTENSIONS.join(', .')}), not "${url}".`
        )
    }
    body.files_requirement = flags.fileUrl.map((url) => ({ file_type: 'image', url }))
  }
  if (flags.userEmail !== undefined) body.user_email = flags.userEmail
  if (flags.returnUrl !== undefined) body.return_url = flags.returnUrl
  if (flags.refId !== undefined) body.ref_id = flags.refId
  checkProjectFields(body)
  return body
}

/** The e-mail and return URL as the app checks them (shared/project-fields.ts); empty clears a field. */
function checkProjectFields(body: Pick<ProjectCreate, 'user_email' | 'return_url'>): void {
  if (body.user_email !== undefined && body.user_email !== '' && !isEmail(body.user_email)) {
    throw usageError('--user-email must be an e-mail address such as ann@example.com (or empty, to leave it blank).')
  }
  if (body.return_url !== undefined && body.return_url !== '' && !isReturnUrl(body.return_url)) {
    throw usageError(
      '--return-url must be an absolute URL such as https://example.com/back, and not a script or file link (or empty, to leave it blank).'
    )
  }
}

export async function projectCreate(ctx: Context, flags: CreateFlags): Promise<ExitCode> {
  const body = createBody(flags)
  return withClient(ctx, async ({ client, connection, stored }) => {
    const project = await client.createProject(body)
    let watchNote = ''
    if (flags.watch) {
      if (!stored) {
        ctx.io.stderr.write(
          `Not watched: ${connection.baseUrl} is not a saved connection (run \`agent-tray login --base-url ${connection.baseUrl}\` first).\n`
        )
      } else {
        await addWatched(ctx, connection.id, project.id, project.name)
        watchNote = `Watching ${project.id}.\n`
      }
    }
    if (ctx.opts.json) printJson(ctx, project)
    else ctx.io.stdout.write(`Created project ${oneLine(project.id, 200)}.\n` + renderProject(project) + watchNote)
    return EXIT.ok
  })
}

export async function projectGet(ctx: Context, id: string): Promise<ExitCode> {
  return withClient(ctx, async ({ client }) => {
    const project = await client.getProject(id)
    if (ctx.opts.json) printJson(ctx, project)
    else ctx.io.stdout.write(renderProject(project))
    return EXIT.ok
  })
}

export type UpdateFlags = Partial<Record<'name' | 'description' | 'userEmail' | 'returnUrl' | 'refId', string>>

const FLAG_OF: Record<(typeof PROJECT_UPDATE_FIELDS)[number], keyof UpdateFlags> = {
  name: 'name',
  description: 'description',
  user_email: 'userEmail',
  return_url: 'returnUrl',
  ref_id: 'refId'
}

export function updateBody(flags: UpdateFlags): ProjectUpdate {
  const body: ProjectUpdate = {}
  for (const field of PROJECT_UPDATE_FIELDS) {
    const value = flags[FLAG_OF[field]]
    if (value !== undefined) body[field] = value
  }
  if (Object.keys(body).length === 0) {
    throw usageError(
      'Nothing to update: give at least one of --name, --description, --user-email, --return-url, --ref-id.'
    )
  }
  checkProjectFields(body)
  return body
}

export async function projectUpdate(ctx: Context, id: string, flags: UpdateFlags): Promise<ExitCode> {
  const body = updateBody(flags)
  return withClient(ctx, async ({ client, connection, stored }) => {
    const project = await client.updateProject(id, body)
    // Keep the watch list's remembered name in step, so the tray reads well before its next poll.
    const watched = stored ? await watchedProjects(ctx, connection.id) : []
    if (body.name !== undefined && watched.some((w) => w.projectId === id)) {
      await addWatched(ctx, connection.id, id, project.name)
    }
    if (ctx.opts.json) printJson(ctx, project)
    else ctx.io.stdout.write(`Updated project ${oneLine(project.id, 200)}.\n` + renderProject(project))
    return EXIT.ok
  })
}
