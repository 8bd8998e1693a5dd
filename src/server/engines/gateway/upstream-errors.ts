import { HttpError } from '../../errors.js';
import { UpstreamError } from '../../providers/upstream-http.js';

/**
 * An upstream's failure in the caller's terms. The caller's request was fine when the upstream
 * rejects the platform's own credentials or model name, so those are 502s, not 4xx; rate limits and
 * overload keep their status and Retry-After, so clients back off as spec 7.2 asks.
 */
export function fromUpstream(err: unknown): unknown {
  if (!(err instanceof UpstreamError)) return err;
  if (err.diagnosed) return new HttpError('upstream_error', err.message, { status: 502 });
  const retry = { 'retry-after': err.retryAfter ?? '1' };
  const says = `upstream: ${err.message}`;
  // Configuration faults: the official clients and the CLI honour this and do not retry in vain.
  const noRetry = { 'x-should-retry': 'false' };
  switch (true) {
    case err.status === 0:
      return new HttpError('upstream_unreachable', err.message, { status: 502 });
    case err.status === -1:
      return new HttpError('upstream_timeout', err.message, { status: 504 });
    case err.status === 429:
      return new HttpError('upstream_rate_limited', says, { status: 429, headers: retry });
    case err.status === 503 || err.status === 529:
      return new HttpError('upstream_overloaded', says, { status: 503, headers: retry });
    case err.status === 401 || err.status === 403:
      return new HttpError(
        'upstream_auth_failed',
        `the upstream refused the platform's credentials (${err.status}): ${err.message}`,
        { status: 502, headers: noRetry },
      );
    case err.status === 404:
      return new HttpError('upstream_model_not_found', `the upstream does not know this model: ${err.message}`, {
        status: 502,
        headers: noRetry,
      });
    case err.status >= 400 && err.status < 500:
      return new HttpError('upstream_rejected_request', says, { status: 400 });
    default:
      return new HttpError('upstream_error', `${says} (status ${err.status})`, { status: 502 });
  }
}
