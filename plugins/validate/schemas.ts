// Request body schemas of the client API. They check what a provider would otherwise reject
// late or misread (types, ranges, enums) and let unknown fields through: providers add
// parameters faster than any gateway, and dropping them silently is worse than forwarding.

const nonEmptyString = { type: 'string', minLength: 1 } as const;

const contentPart = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    text: { type: 'string' },
    image_url: {
      type: 'object',
      required: ['url'],
      properties: { url: nonEmptyString, detail: { enum: ['auto', 'low', 'high'] } },
    },
  },
} as const;

const message = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { enum: ['system', 'developer', 'user', 'assistant', 'tool', 'function'] },
    content: {
      anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', items: contentPart }],
    },
    name: { type: 'string' },
    tool_call_id: { type: 'string' },
    tool_calls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'function'],
        properties: {
          id: { type: 'string' },
          type: { const: 'function' },
          function: {
            type: 'object',
            required: ['name', 'arguments'],
            properties: { name: { type: 'string' }, arguments: { type: 'string' } },
          },
        },
      },
    },
  },
  // `required` inside `if`: without it a message with no role would count as a tool message.
  if: { required: ['role'], properties: { role: { const: 'tool' } } },
  then: { required: ['tool_call_id'] },
} as const;

const chatTool = {
  type: 'object',
  required: ['type', 'function'],
  properties: {
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name'],
      properties: { name: nonEmptyString, description: { type: 'string' }, parameters: { type: 'object' }, strict: { type: 'boolean' } },
    },
  },
} as const;

const effort = { enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] } as const;

export const chatRequestSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: nonEmptyString,
    messages: { type: 'array', minItems: 1, items: message },
    stream: { type: 'boolean' },
    stream_options: { anyOf: [{ type: 'null' }, { type: 'object', properties: { include_usage: { type: 'boolean' } } }] },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    n: { type: 'integer', minimum: 1, maximum: 128 },
    max_tokens: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }] },
    max_completion_tokens: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }] },
    presence_penalty: { type: 'number', minimum: -2, maximum: 2 },
    frequency_penalty: { type: 'number', minimum: -2, maximum: 2 },
    seed: { type: 'integer' },
    user: { type: 'string' },
    stop: { anyOf: [{ type: 'null' }, { type: 'string' }, { type: 'array', maxItems: 4, items: { type: 'string' } }] },
    tools: { type: 'array', items: chatTool },
    tool_choice: {
      anyOf: [
        { enum: ['none', 'auto', 'required'] },
        { type: 'object', required: ['type', 'function'], properties: { type: { const: 'function' }, function: { type: 'object', required: ['name'], properties: { name: nonEmptyString } } } },
      ],
    },
    parallel_tool_calls: { type: 'boolean' },
    response_format: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['text', 'json_object', 'json_schema'] } },
      if: { required: ['type'], properties: { type: { const: 'json_schema' } } },
      then: { required: ['json_schema'], properties: { json_schema: { type: 'object', required: ['name'] } } },
    },
    reasoning_effort: effort,
    logprobs: { type: 'boolean' },
    top_logprobs: { type: 'integer', minimum: 0, maximum: 20 },
  },
} as const;

export const embeddingsRequestSchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: nonEmptyString,
    input: {
      anyOf: [
        { type: 'string' },
        { type: 'array', minItems: 1, maxItems: 2048, items: { type: 'string' } },
        { type: 'array', minItems: 1, items: { type: 'integer' } },
        { type: 'array', minItems: 1, items: { type: 'array', minItems: 1, items: { type: 'integer' } } },
      ],
    },
    encoding_format: { enum: ['float', 'base64'] },
    dimensions: { type: 'integer', minimum: 1 },
    user: { type: 'string' },
  },
} as const;

const responsesInput = {
  anyOf: [
    { type: 'string' },
    {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          role: { enum: ['system', 'developer', 'user', 'assistant'] },
          content: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } }] },
          call_id: { type: 'string' },
          name: { type: 'string' },
          arguments: { type: 'string' },
          output: { anyOf: [{ type: 'string' }, { type: 'array' }] },
        },
      },
    },
  ],
} as const;

export const responsesRequestSchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model: nonEmptyString,
    input: responsesInput,
    instructions: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    stream: { type: 'boolean' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    max_output_tokens: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }] },
    tools: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } },
    tool_choice: { anyOf: [{ type: 'string' }, { type: 'object' }] },
    parallel_tool_calls: { type: 'boolean' },
    reasoning: { anyOf: [{ type: 'null' }, { type: 'object', properties: { effort } }] },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    store: { type: 'boolean' },
    previous_response_id: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
} as const;

/** The compact body (docs/api.md): the contract requires no field, but a model is needed to route. */
export const compactRequestSchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model: nonEmptyString,
    provider: { type: 'string' },
    input: responsesInput,
    instructions: { type: 'string' },
    conversation: { anyOf: [{ type: 'string' }, { type: 'object', required: ['id'], properties: { id: { type: 'string' } } }] },
    previous_response_id: { type: 'string' },
    include: { type: 'array', items: { type: 'string' } },
    max_output_tokens: { type: 'integer' },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    parallel_tool_calls: { type: 'boolean' },
    prompt_cache_retention: { type: 'string' },
    reasoning: { type: 'object', properties: { effort: { enum: ['low', 'medium', 'high', 'xhigh', 'max'] } } },
    safety_identifier: { type: 'string' },
    service_tier: { type: 'string' },
    store: { type: 'boolean' },
    temperature: { type: 'number' },
    tool_choice: { anyOf: [{ type: 'string' }, { type: 'object' }] },
    tools: { type: 'array', items: { type: 'object' } },
    top_logprobs: { type: 'integer' },
    top_p: { type: 'number' },
    truncation: { type: 'string' },
    user: { type: 'string' },
  },
} as const;
