// The data-plane api-version sent when neither AZURE_OPENAI_API_VERSION nor an instance's
// `api_version` names one: the latest dated GA release of the inference API
// (learn.microsoft.com/azure/ai-services/openai/reference, "Latest GA release"). It is also the
// first GA version that takes `stream_options`, which the gateway sends to get usage on streams;
// older GA versions answer "Unrecognized request argument supplied: stream_options".
export const DEFAULT_API_VERSION = '2024-10-21';
