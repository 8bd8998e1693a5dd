/** An error as its surface answers it: status, body and headers. */
export interface ShapedError {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}
