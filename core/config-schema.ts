// The core's own config keys. Plugin options are validated by each plugin's schema; provider
// entries by their provider plugin (only the keys every provider shares are checked here).

export const coreConfigSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['server', 'data_dir', 'upstream', 'log', 'providers', 'plugins'],
  properties: {
    server: {
      type: 'object',
      additionalProperties: false,
      required: ['host', 'port', 'body_limit_bytes', 'shutdown_timeout_ms'],
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        body_limit_bytes: { type: 'integer', minimum: 1024 },
        shutdown_timeout_ms: { type: 'integer', minimum: 0 },
        keep_alive_timeout_ms: { type: 'integer', minimum: 0 },
        drain_grace_ms: { type: 'integer', minimum: 0 },
      },
    },
    data_dir: { type: 'string', minLength: 1 },
    master_key: { type: ['string', 'null'] },
    upstream: {
      type: 'object',
      additionalProperties: false,
      required: ['connect_timeout_ms', 'first_byte_timeout_ms', 'idle_timeout_ms', 'connections_per_origin', 'queue_timeout_ms', 'max_buffered_answer_bytes'],
      properties: {
        connect_timeout_ms: { type: 'integer', minimum: 1 },
        first_byte_timeout_ms: { type: 'integer', minimum: 1 },
        idle_timeout_ms: { type: 'integer', minimum: 1 },
        connections_per_origin: { type: ['integer', 'null'], minimum: 1 },
        queue_timeout_ms: { type: 'integer', minimum: 0 },
        max_buffered_answer_bytes: { type: 'integer', minimum: 1 },
      },
    },
    log: {
      type: 'object',
      additionalProperties: false,
      required: ['level', 'format', 'access'],
      properties: {
        level: { enum: ['error', 'warn', 'info', 'debug'] },
        format: { enum: ['auto', 'json', 'text'] },
        access: { type: 'boolean' },
      },
    },
    providers: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: {
          type: { type: 'string', minLength: 1 },
          enabled: { type: 'boolean' },
          api_key: { type: ['string', 'null'] },
          base_url: { type: ['string', 'null'] },
        },
      },
    },
    plugins: {
      type: 'array',
      items: {
        oneOf: [
          { type: 'string', minLength: 1 },
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              name: { type: 'string', minLength: 1 },
              path: { type: 'string', minLength: 1 },
              package: { type: 'string', minLength: 1 },
              enabled: { type: 'boolean' },
              options: {},
            },
            oneOf: [{ required: ['name'] }, { required: ['path'] }, { required: ['package'] }],
          },
        ],
      },
    },
  },
} as const;
