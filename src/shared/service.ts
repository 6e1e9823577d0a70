// The service's resources as the client parses them, tolerant of what servers add or leave out; a value outside an
// enumeration is kept as 'unknown' beside the raw string, so a new status never fails a list.

export const TASK_STATUSES = ['todo', 'in_progress', 'completed', 'failed', 'cancelled'] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

export const STEP_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const
export type StepStatus = (typeof STEP_STATUSES)[number]

export const STEP_TYPES = ['ai_agent_message', 'image_understanding', 'research', 'image_generation'] as const
export type StepType = (typeof STEP_TYPES)[number]

export const KNOWN_TOOLS = [
  'read_file_from_sandbox',
  'write_file_to_sandbox',
  'get_list_of_files_in_sandbox',
  'run_command_in_sandbox',
  'replace_text_in_files_sandbox'
] as const

export type Unknown = 'unknown'

export interface FileRequirement {
  file_type: string
  url: string
}

export interface Project {
  id: string
  software_product_id: string
  name: string
  description: string
  project_type: string
  project_template_type: string
  created_at: string
  updated_at: string
  user_email: string
  prebuilt_url: string
  return_url: string
  ref_id: string
}

export interface TaskStep {
  id: string
  task_id: string
  name: string
  description: string
  status: StepStatus | Unknown
  /** The server's value when `status` is `'unknown'`. */
  status_raw?: string
  /** null when the step is not of a special type; `'unknown'` for a type we do not know. */
  type: StepType | null | Unknown
  type_raw?: string
  /** Free-form, keyed by `tool`; interpret with `describeStepMetadata`. */
  metadata: Record<string, unknown>
  created_at: string
  updated_at: string
}

export interface Task {
  id: string
  project_id: string
  name: string
  description: string
  status: TaskStatus | Unknown
  status_raw?: string
  text_requirement: string
  files_requirement: FileRequirement[]
  created_at: string
  updated_at: string
  steps: TaskStep[]
  branch: string
  /** USD. null when the server sent none. */
  total_price: number | null
}

/** LangChain's UsageMetadata plus the service's `cache_read_tokens`. Absent is not 0. */
export interface UsageMetadata {
  input_tokens: number
  output_tokens: number
  total_tokens: number
  cache_read_tokens?: number
  /** cache_read, cache_creation, audio, provider-specific keys... */
  input_token_details?: Record<string, number>
  /** reasoning, audio, ... */
  output_token_details?: Record<string, number>
}

export interface UsagePrice {
  input_price?: number
  output_price?: number
  cache_read_price?: number
  total_price?: number
}

export interface UsageRecord {
  id: string
  task_id: string
  usage_type: string
  provider: string
  model: string
  remark: string
  request_data: Record<string, unknown>
  /** The provider's raw response metadata; every key optional and provider-specific. */
  response_data: Record<string, unknown>
  usage_metadata: UsageMetadata
  price: UsagePrice
  /** USD; the authority for this record. */
  final_price: number
  created_at: string
  updated_at: string
}

export interface StepsAndUsages {
  steps: TaskStep[]
  usages: UsageRecord[]
}

export interface PublishResult {
  status: 'success' | 'failed'
  /** Always a list here, whether the server sent a string or a list. */
  message: string[]
}

/** POST /projects body: no field is marked required. */
export interface ProjectCreate {
  software_product_id?: string
  name?: string
  description?: string
  project_type?: 'web'
  text_requirement?: string
  files_requirement?: FileRequirement[]
  user_email?: string
  return_url?: string
  ref_id?: string
}

export const PROJECT_UPDATE_FIELDS = ['name', 'description', 'user_email', 'return_url', 'ref_id'] as const
export type ProjectUpdateField = (typeof PROJECT_UPDATE_FIELDS)[number]
/** PATCH /projects/{id} body: only these five fields. */
export type ProjectUpdate = Partial<Record<ProjectUpdateField, string>>
