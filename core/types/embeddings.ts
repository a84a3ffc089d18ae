export interface EmbeddingsRequest {
  model: string;
  input: string | string[] | number[] | number[][];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
  user?: string;
  [extra: string]: unknown;
}

export interface Embedding {
  object: 'embedding';
  index: number;
  /** A float array, or base64 of little-endian float32 when `encoding_format` is base64. */
  embedding: number[] | string;
}

export interface EmbeddingsResponse {
  object: 'list';
  data: Embedding[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
