// Shared by this plugin's tests: what a translated response echoes when the request set none
// of the echoed fields.
export const DEFAULT_ECHO = Object.freeze({
  background: false,
  error: null,
  instructions: null,
  max_output_tokens: null,
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: null, summary: null },
  store: false,
  temperature: null,
  text: { format: { type: 'text' } },
  tool_choice: 'auto',
  tools: [],
  top_p: null,
  truncation: 'disabled',
  user: null,
  metadata: {},
});
