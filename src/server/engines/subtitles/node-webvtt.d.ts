declare module 'node-webvtt' {
  export interface WebVttCue {
    identifier: string;
    start: number;
    end: number;
    text: string;
    styles: string;
  }
  export function parse(
    input: string,
    options?: { meta?: boolean; strict?: boolean },
  ): { valid: boolean; cues: WebVttCue[]; errors: unknown[]; meta?: Record<string, string> };
  export function compile(input: { valid: boolean; cues: WebVttCue[]; meta?: Record<string, string> }): string;
}
