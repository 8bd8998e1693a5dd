import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { credentialsOf } from '../http/register.js';
import { actorOf } from '../http/audit-actor.js';
import { endSession } from '../auth/sessions.js';
import { assertSignInAllowed, recordSignInFailure } from '../auth/sign-in-limit.js';
import { consoleUser, signIn } from '../services/console/sign-in.service.js';
import {
  assertOwnHost,
  assertSameOrigin,
  CONSOLE_CSP_WITH_SCRIPT,
  csrfToken,
  csrfTokenMatches,
  secureHeaders,
  sessionCookie,
} from './security.js';
import { bareShell, CONSOLE_PREFIX, consoleShell, errorBody, signInPage } from './layout.js';
import { CONSOLE_CSS } from './style.js';
import { CONSOLE_SCRIPTS } from './scripts.js';
import { CONSOLE_PAGES } from './registry.js';
import type { PageHandler } from './page.js';

/** Largest form the console takes: its forms hold a key and a token. */
export const CONSOLE_FORM_LIMIT_BYTES = 16 * 1024;

const NAV = CONSOLE_PAGES.map(({ slug, label }) => ({ slug, label }));

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').send(body);
}

/** 303: after a form, the browser GETs the page it is sent to. */
const seeOther = (reply: FastifyReply, to: string) => reply.code(303).header('location', to).send();

/** The posted fields that are text: a JSON body in the console's scope may carry anything else. */
const formOf = (request: FastifyRequest): Record<string, string> =>
  request.body && typeof request.body === 'object'
    ? Object.fromEntries(Object.entries(request.body).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

/**
 * The local console (`facet serve`, off with --no-console): server-rendered pages over the same
 * services as the API, signed in with a session cookie, every form bound to its session by a token
 * and refused from any other origin. Its own scope: its form parser, headers and HTML errors touch
 * no API route.
 */
export function consoleRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: CONSOLE_FORM_LIMIT_BYTES },
        (_req, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        },
      );
      scope.addHook('onRequest', (request, reply, done) => {
        secureHeaders(reply);
        // Reads too: a rebound name must not even see a page (what it shows, it could read).
        try {
          assertOwnHost(request, ctx.baseUrl);
          done();
        } catch (err) {
          done(err as Error);
        }
      });
      scope.setErrorHandler((err: Error & { statusCode?: number }, request, reply) => {
        const status =
          err instanceof HttpError
            ? err.status
            : err.statusCode && err.statusCode >= 400 && err.statusCode < 500
              ? err.statusCode
              : 500;
        if (status >= 500) request.log.error({ err }, 'console page failed');
        const message = status >= 500 ? 'something went wrong on the server while making this page' : err.message;
        return html(reply, status, bareShell('Error', errorBody(status, message)));
      });
      scope.setNotFoundHandler((request, reply) =>
        html(reply, 404, bareShell('Not found', errorBody(404, `no console page ${request.url.split('?')[0]}`))),
      );

      scope.get('/console.css', (_request, reply) =>
        reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'no-cache').send(CONSOLE_CSS),
      );
      for (const [name, source] of Object.entries(CONSOLE_SCRIPTS)) {
        scope.get(`/assets/${name}`, (_request, reply) =>
          reply
            .header('content-type', 'text/javascript; charset=utf-8')
            .header('cache-control', 'no-cache')
            .send(source),
        );
      }

      scope.get('/', async (request, reply) =>
        seeOther(
          reply,
          (await consoleUser(ctx, credentialsOf(request).sessionCookie))
            ? `${CONSOLE_PREFIX}/${NAV[0].slug}`
            : `${CONSOLE_PREFIX}/login`,
        ),
      );

      scope.get('/login', async (request, reply) => {
        if (await consoleUser(ctx, credentialsOf(request).sessionCookie))
          return seeOther(reply, `${CONSOLE_PREFIX}/${NAV[0].slug}`);
        return html(
          reply,
          200,
          signInPage(
            request.query && (request.query as Record<string, string>).out === '1'
              ? { text: 'You are signed out.', error: false }
              : undefined,
          ),
        );
      });

      scope.post('/login', async (request, reply) => {
        assertSameOrigin(request, ctx.baseUrl);
        const secret = formOf(request).key ?? '';
        const client = request.ip ?? 'unknown';
        try {
          await assertSignInAllowed(ctx.db, client, secret, ctx.now());
          const session = await signIn(ctx, secret, (user, key) => actorOf(request, { user, apiKey: key, via: 'key' }));
          reply.header('set-cookie', sessionCookie(request, session.value, session.maxAgeSeconds));
          return seeOther(reply, `${CONSOLE_PREFIX}/${NAV[0].slug}`);
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          // Guessing is bounded per client address and per key prefix (auth/sign-in-limit.ts).
          if (err.status === 401) await recordSignInFailure(ctx.db, client, secret, ctx.now());
          reply.headers(err.headers);
          return html(reply, err.status, signInPage({ text: err.message, error: true }));
        }
      });

      scope.post('/logout', async (request, reply) => {
        const cookie = credentialsOf(request).sessionCookie;
        assertSameOrigin(request, ctx.baseUrl);
        if (cookie && !csrfTokenMatches(ctx.tokenSecret, cookie, formOf(request).csrf)) throw missingToken();
        await endSession(ctx, cookie);
        reply.header('set-cookie', sessionCookie(request, '', 0));
        return seeOther(reply, `${CONSOLE_PREFIX}/login?out=1`);
      });

      for (const page of CONSOLE_PAGES) {
        for (const [sub, handler] of Object.entries(page.get))
          scope.get(`/${page.slug}${sub}`, serve(ctx, page.slug, handler, false));
        for (const [sub, handler] of Object.entries(page.post ?? {}))
          scope.post(`/${page.slug}${sub}`, serve(ctx, page.slug, handler, true));
      }
    },
    { prefix: CONSOLE_PREFIX },
  );
}

const missingToken = () =>
  new HttpError(
    'FORBIDDEN',
    'This form is missing its token or carries one of another session: reload the page and send it again',
    { status: 403 },
  );

/** Signed-in pages: no session sends the browser to sign in; a form must carry its session's token. */
function serve(ctx: AppContext, slug: string, handler: PageHandler, isForm: boolean) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const cookie = credentialsOf(request).sessionCookie;
    if (isForm) assertSameOrigin(request, ctx.baseUrl);
    const user = await consoleUser(ctx, cookie);
    if (!user || !cookie) {
      if (isForm) throw new HttpError('FORBIDDEN', 'Your console session has ended: sign in again', { status: 403 });
      return seeOther(reply, `${CONSOLE_PREFIX}/login`);
    }
    const form = formOf(request);
    if (isForm && !csrfTokenMatches(ctx.tokenSecret, cookie, form.csrf)) throw missingToken();
    const csrf = csrfToken(ctx.tokenSecret, cookie);
    // What a page changes is recorded as done by this user through their console session.
    const actor = actorOf(request, { user, apiKey: null, via: 'cookie' });
    const out = await handler({
      ctx,
      user,
      csrf,
      actor,
      params: request.params as Record<string, string>,
      query: request.query as Record<string, string | undefined>,
      form,
    });
    if ('redirect' in out) return seeOther(reply, out.redirect);
    if (out.scripts?.length) reply.header('content-security-policy', CONSOLE_CSP_WITH_SCRIPT);
    return html(reply, out.status ?? 200, consoleShell({ ...out, user, csrf, nav: NAV, current: slug }));
  };
}
