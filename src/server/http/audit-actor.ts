import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/authenticate.js';
import type { AuditActor } from '../services/audit.service.js';
import { redactSecrets } from './log-redaction.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's name (`--instance-id`), set by app.ts. */
    facetInstanceId: string;
  }
}

/** The actor of a change made through the API: the caller's user and key id, the request, and where it came from. */
export function actorOf(request: FastifyRequest, auth: AuthContext): AuditActor {
  const agent = request.headers['user-agent'];
  return {
    kind: auth.via,
    userId: auth.user.id,
    credentialId: auth.apiKey?.id ?? null,
    requestId: redactSecrets(request.id),
    // request.ip follows --trust-proxy / --public-url (http/link-base.ts), like every other use.
    clientIp: request.ip ?? null,
    // The trail keeps what was sent, but never a credential pasted into it.
    userAgent: typeof agent === 'string' ? redactSecrets(agent.slice(0, 300)) : null,
    instanceId: request.server.facetInstanceId,
  };
}
