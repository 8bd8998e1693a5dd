import { healthz } from '../contract/system.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const systemClient = (t: Transport) => ({
  /** GET /healthz: the platform's status, version and uptime; needs no credentials. */
  health: () => callRoute(t, healthz),
});
