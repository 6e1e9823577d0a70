// A task's whole future is drawn once from its seeded stream and read at a moment (timeline.ts), so results do not
// depend on how time was advanced.
import type { StepType, TaskStatus } from '../shared/service'
import { type ModelRate, MODELS, type Price, priceFor } from './pricing'
import { intBetween, pick, type Random, shuffle, streamFor, uuidFrom } from './random'
import type { TaskScript } from './types'

export interface UsageSpec {
  id: string
  rate: ModelRate
  remark: string
  input: number
  cacheRead: number
  output: number
  /** Reasoning tokens (part of output), or null when the model does not report them. */
  reasoning: number | null
  price: Price
  final: number
  at: number
}

export interface StepSpec {
  id: string
  name: string
  description: string
  type: StepType | null
  metadata: Record<string, unknown>
  /** Appears (pending) */
  createdAt: number
  /** Becomes in_progress */
  startAt: number
  /** Ends; Infinity while the task runs forever. */
  endAt: number
  outcome: 'completed' | 'failed'
  usages: UsageSpec[]
}

export interface TaskPlan {
  startAt: number
  steps: StepSpec[]
  /** How the task ends; null when it runs forever. */
  end: { status: Extract<TaskStatus, 'completed' | 'failed' | 'cancelled'>; at: number } | null
}

export interface PlanInput {
  seed: number
  taskId: string
  createdAt: number
  script: TaskScript
  /** Exact number of steps (bulk fixtures); otherwise drawn (12–17). */
  stepCount?: number
  hasImages: boolean
  /** Multiplies every duration. Default 1. */
  durationScale?: number
}

const FILES = [
  'src/App.tsx',
  'src/main.tsx',
  'src/index.css',
  'src/App.css',
  'src/components/Header.tsx',
  'src/components/Footer.tsx',
  'src/components/TaskList.tsx',
  'src/components/TaskItem.tsx',
  'src/hooks/useLocalStorage.ts',
  'src/lib/api.ts',
  'src/pages/Home.tsx',
  'src/pages/Settings.tsx',
  'index.html',
  'package.json',
  'vite.config.ts',
  'tailwind.config.js'
] as const

const DIRS = ['', 'src', 'src/components', 'public', 'src/pages'] as const

const COMMANDS = [
  'npm run lint',
  'npx tsc --noEmit',
  'npm install react-router-dom',
  'npm install clsx',
  'npm test -- --run',
  'ls -la public'
] as const

const REPLACEMENTS = [
  { files: ['src/App.tsx'], pattern: 'Vite + React', new_value: 'Recipe Box' },
  { files: ['src/index.css', 'src/App.css'], pattern: '#646cff', new_value: '#0ea5e9' },
  { files: ['index.html'], pattern: '<title>Vite + React + TS</title>', new_value: '<title>Recipe Box</title>' },
  {
    files: ['src/components/Header.tsx', 'src/components/Footer.tsx'],
    pattern: 'className="container"',
    new_value: 'className="mx-auto max-w-5xl px-4"'
  },
  { files: ['src/lib/api.ts'], pattern: 'http://localhost:3000', new_value: 'import.meta.env.VITE_API_URL' }
] as const

const RESEARCH = [
  'Tailwind CSS v4 setup with Vite',
  'accessible modal dialogs in React',
  'React Router data loaders',
  'localStorage sync across tabs'
] as const
const IMAGES = [
  'a hero illustration of a kitchen table',
  'a flat app icon with a green leaf',
  'an empty-state drawing of a notebook'
] as const
const MESSAGES = [
  'I will start by looking at the project structure.',
  'The layout is in place; next I will wire up the data.',
  'Done. The app builds and the main pages are in place.'
] as const

type Kind =
  | 'intro'
  | 'list'
  | 'read'
  | 'write'
  | 'replace'
  | 'install'
  | 'command'
  | 'build'
  | 'research'
  | 'image_generation'
  | 'image_understanding'
  | 'think'
  | 'unknown_tool'
  | 'summary'

interface Content {
  name: string
  description: string
  type: StepType | null
  metadata: Record<string, unknown>
  /** Running time range, simulated ms. */
  run: [number, number]
}

function content(kind: Kind, r: Random): Content {
  switch (kind) {
    case 'intro':
      return {
        name: 'Agent message',
        description: pick(r, MESSAGES.slice(0, 2)),
        type: 'ai_agent_message',
        metadata: {},
        run: [1500, 4000]
      }
    case 'summary':
      return {
        name: 'Agent message',
        description: MESSAGES[2],
        type: 'ai_agent_message',
        metadata: {},
        run: [1500, 4000]
      }
    case 'list': {
      const path = kind === 'list' && r() < 0.5 ? '' : pick(r, DIRS)
      return {
        name: 'List files',
        description: `Listed the files in ${path === '' ? 'the project root' : path}`,
        type: null,
        metadata: { tool: 'get_list_of_files_in_sandbox', path },
        run: [800, 2500]
      }
    }
    case 'read': {
      const path = pick(r, FILES)
      return {
        name: `Read ${path}`,
        description: `Read ${path} to understand the current code`,
        type: null,
        metadata: { tool: 'read_file_from_sandbox', path },
        run: [800, 3000]
      }
    }
    case 'write': {
      const path = pick(r, FILES.slice(0, 12))
      return {
        name: `Write ${path}`,
        description: `Wrote ${path}`,
        type: null,
        metadata: { tool: 'write_file_to_sandbox', path },
        run: [2000, 7000]
      }
    }
    case 'replace': {
      const rep = pick(r, REPLACEMENTS)
      return {
        name: `Replace text in ${rep.files.length === 1 ? rep.files[0] : `${rep.files.length} files`}`,
        description: `Replaced "${rep.pattern}" with "${rep.new_value}"`,
        type: null,
        metadata: {
          tool: 'replace_text_in_files_sandbox',
          files: [...rep.files],
          pattern: rep.pattern,
          new_value: rep.new_value
        },
        run: [1000, 3000]
      }
    }
    case 'install':
      return {
        name: 'Run npm install',
        description: 'Installed the dependencies',
        type: null,
        metadata: { tool: 'run_command_in_sandbox', command: 'npm install' },
        run: [8000, 20000]
      }
    case 'build':
      return {
        name: 'Run npm run build',
        description: 'Built the app for production',
        type: null,
        metadata: { tool: 'run_command_in_sandbox', command: 'npm run build' },
        run: [5000, 12000]
      }
    case 'command': {
      const command = pick(r, COMMANDS)
      return {
        name: `Run ${command}`,
        description: `Ran ${command}`,
        type: null,
        metadata: { tool: 'run_command_in_sandbox', command },
        run: [2000, 9000]
      }
    }
    case 'research': {
      const topic = pick(r, RESEARCH)
      return { name: 'Research', description: `Looked up ${topic}`, type: 'research', metadata: {}, run: [4000, 10000] }
    }
    case 'image_generation': {
      const what = pick(r, IMAGES)
      return {
        name: 'Generate image',
        description: `Generated ${what}`,
        type: 'image_generation',
        metadata: {},
        run: [6000, 15000]
      }
    }
    case 'image_understanding':
      return {
        name: 'Understand image',
        description: 'Studied the attached design mock-up',
        type: 'image_understanding',
        metadata: {},
        run: [3000, 8000]
      }
    case 'think':
      return {
        name: 'Plan the changes',
        description: 'Worked out which components to add and change',
        type: null,
        metadata: {},
        run: [1500, 5000]
      }
    case 'unknown_tool':
      return r() < 0.5
        ? {
            name: 'Take a screenshot',
            description: 'Captured the preview to check the layout',
            type: null,
            metadata: { tool: 'take_preview_screenshot', url: '/', viewport: { width: 1280, height: 800 } },
            run: [2000, 5000]
          }
        : {
            name: 'Search the web',
            description: 'Searched for documentation',
            type: null,
            metadata: { tool: 'search_web', query: 'vite react tailwind setup' },
            run: [2000, 6000]
          }
  }
}

const FILLERS: readonly Kind[] = ['read', 'read', 'write', 'write', 'list', 'replace', 'command', 'think']

/** The sequence of step kinds: every type and every known tool appears when there is room. */
function kindsFor(r: Random, input: PlanInput): Kind[] {
  const middle: Kind[] = ['read', 'write', 'replace', 'install', 'research', 'image_generation', 'think']
  if (r() < 0.35) middle.push('unknown_tool')
  const extra = intBetween(r, 1, 5)
  for (let i = 0; i < extra; i++) middle.push(pick(r, FILLERS))
  shuffle(r, middle)
  const head: Kind[] = input.hasImages ? ['intro', 'image_understanding', 'list'] : ['intro', 'list']
  const all = [...head, ...middle, 'build', 'summary'] as Kind[]
  if (input.stepCount === undefined) return all
  const out = all.slice(0, input.stepCount)
  while (out.length < input.stepCount) out.splice(out.length - 1, 0, pick(r, FILLERS))
  return out
}

function usagesFor(r: Random, primary: ModelRate, index: number, kind: Kind, at: number): UsageSpec[] {
  const calls = kind === 'summary' || r() < 0.12 ? 2 : 1
  const out: UsageSpec[] = []
  for (let c = 0; c < calls; c++) {
    const rate = c === 0 ? primary : (MODELS[1] as ModelRate)
    const input = 1800 + index * 700 + intBetween(r, 0, 1500)
    const cacheRead = index === 0 ? 0 : Math.floor(input * (0.5 + r() * 0.4))
    const output = intBetween(r, 40, 900)
    const reasoning = rate.reasons ? Math.floor(output * r() * 0.6) : null
    const { price, final } = priceFor(rate, { input, cacheRead, output })
    out.push({
      id: uuidFrom(r),
      rate,
      remark: c === 0 ? (kind === 'summary' ? 'final_answer' : 'agent_step') : 'summarize_tool_output',
      input,
      cacheRead,
      output,
      reasoning,
      price,
      final,
      at: at + c * 400
    })
  }
  return out
}

export function planTask(input: PlanInput): TaskPlan {
  const r = streamFor(input.seed, `plan:${input.taskId}`)
  const scale = input.durationScale ?? 1
  const dur = (range: [number, number]) => Math.max(1, Math.round(intBetween(r, range[0], range[1]) * scale))
  // Most tasks think with one model; the cheaper one summarises tool output.
  const primary = pick(r, [MODELS[0], MODELS[0], MODELS[3], MODELS[3], MODELS[2], MODELS[4]]) as ModelRate
  const startAt = input.createdAt + dur([1000, 4000])
  const kinds = kindsFor(r, input)
  const steps: StepSpec[] = []
  let cursor = startAt
  kinds.forEach((kind, index) => {
    const c = content(kind, r)
    const lead = r() < 0.4 ? dur([300, 1500]) : 0
    const createdAt = cursor
    const stepStart = cursor + lead
    const endAt = stepStart + dur(c.run)
    steps.push({
      id: uuidFrom(r),
      name: c.name,
      description: c.description,
      type: c.type,
      metadata: c.metadata,
      createdAt,
      startAt: stepStart,
      endAt,
      outcome: 'completed',
      usages: usagesFor(r, primary, index, kind, stepStart)
    })
    cursor = endAt + dur([100, 800])
  })
  const last = steps[steps.length - 1]
  if (!last) return { startAt, steps, end: { status: input.script === 'fail' ? 'failed' : 'completed', at: startAt } }
  switch (input.script) {
    case 'complete':
      return { startAt, steps, end: { status: 'completed', at: last.endAt } }
    case 'fail':
      last.outcome = 'failed'
      last.description =
        kinds[kinds.length - 1] === 'summary'
          ? 'The build kept failing; stopping here.'
          : `${last.description} (failed)`
      return { startAt, steps, end: { status: 'failed', at: last.endAt } }
    case 'cancel': {
      const at = steps[Math.floor(steps.length / 2)] as StepSpec
      const cancelAt = Math.floor((at.startAt + at.endAt) / 2)
      return {
        startAt,
        steps: steps.filter((s) => s.createdAt <= cancelAt),
        end: { status: 'cancelled', at: cancelAt }
      }
    }
    case 'run-forever':
      last.endAt = Infinity
      return { startAt, steps, end: null }
  }
}

/** When a plan finishes (or would have), for placing tasks in the past. */
export function planDuration(plan: TaskPlan, createdAt: number): number {
  if (plan.end) return plan.end.at - createdAt
  const last = plan.steps[plan.steps.length - 1]
  return last ? last.startAt - createdAt : plan.startAt - createdAt
}
