// `projects --product ID | --product-of PROJECT [--order asc|desc]`: a software product's
// projects, where the service offers that listing (outside the interface document).
import { findProjectId } from '../../shared/project-id'
import type { Project } from '../../shared/service'
import { usageError } from '../cli-error'
import { type Context, printJson, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { checkId } from '../ids'
import { renderTable } from '../table'
import { watchedProjects } from './watch-list'

export interface ProductFlags {
  product?: string
  productOf?: string
  order?: string
}

const MAX_DESCRIPTION = 60

export async function productProjectsCommand(ctx: Context, flags: ProductFlags): Promise<ExitCode> {
  if ((flags.product === undefined) === (flags.productOf === undefined)) {
    throw usageError(
      'Give the product: --product ID, or --product-of PROJECT (a project id or link) to take its product.'
    )
  }
  const order = (flags.order ?? 'desc').toLowerCase()
  if (order !== 'asc' && order !== 'desc') throw usageError(`--order must be asc or desc, not "${flags.order}".`)
  return withClient(ctx, async ({ client, connection, stored }) => {
    let productId = flags.product === undefined ? undefined : checkId(flags.product, 'product')
    if (productId === undefined) {
      const found = findProjectId(flags.productOf ?? '')
      if (!found.ok) throw usageError(found.problem)
      productId = (await client.getProject(found.projectId)).software_product_id
      if (productId === '') throw usageError(`Project ${found.projectId} belongs to no software product.`)
    }
    const projects = await client.listProductProjects(productId, order)
    const watched = new Set(stored ? (await watchedProjects(ctx, connection.id)).map((w) => w.projectId) : [])
    if (ctx.opts.json)
      printJson(
        ctx,
        projects.map((p) => ({ ...p, watched: watched.has(p.id) }))
      )
    else if (projects.length === 0)
      ctx.io.stdout.write(`Software product ${productId} has no projects on ${connection.baseUrl}.\n`)
    else ctx.io.stdout.write(renderProducts(projects, watched))
    return EXIT.ok
  })
}

function renderProducts(projects: readonly Project[], watched: ReadonlySet<string>): string {
  const rows = projects.map((p) => {
    const description = p.description.replace(/\s+/g, ' ').trim()
    return [
      p.id,
      watched.has(p.id) ? 'yes' : '',
      p.created_at.slice(0, 10),
      p.name,
      description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description
    ]
  })
  return renderTable(['PROJECT', 'WATCHED', 'CREATED', 'NAME', 'DESCRIPTION'], rows)
}
