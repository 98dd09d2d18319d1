import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Host names that only this machine reaches. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** What the guard of a served HTTP endpoint checks. */
export interface HttpGuardOptions {
  /** The address the server listens on. */
  host: string;
  /** The port it listens on (for the Host check). */
  port: number;
  /** Required as `Authorization: Bearer <token>`; undefined: no authentication (`--no-auth`). */
  token: string | undefined;
  /** Origins allowed besides the loopback ones (`http://localhost:6274`, …). */
  allowedOrigins: readonly string[];
}

/** Why a request is refused: the HTTP status and a sentence for the client. */
export interface HttpRefusal {
  status: 401 | 403;
  message: string;
  headers?: Record<string, string>;
}

/**
 * A new bearer token: 32 random bytes, base64url.
 *
 * @returns The token.
 */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Checks one request before the MCP transport sees it: on a loopback address the `Host` header
 * must name it (a web page that rebinds its DNS name to 127.0.0.1 sends its own name); an
 * `Origin` header, which browsers send, must be a loopback origin or one allowed; and with a
 * token, `Authorization: Bearer <token>` must carry it (compared in constant time).
 *
 * @param req The request.
 * @param options What to check against.
 * @returns The refusal, or undefined when the request may go on.
 */
export function checkHttpRequest(req: IncomingMessage, options: HttpGuardOptions): HttpRefusal | undefined {
  const hostHeader = req.headers.host;
  if (LOOPBACK_HOSTS.has(options.host)) {
    const allowed = [`127.0.0.1:${options.port}`, `localhost:${options.port}`, `[::1]:${options.port}`];
    if (hostHeader === undefined || !allowed.includes(hostHeader.toLowerCase())) {
      return {
        status: 403,
        message: `Forbidden: the Host header ${JSON.stringify(hostHeader ?? '')} is not this server's loopback address (${allowed.join(', ')}); connect to ${allowed[0]} directly`,
      };
    }
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, options.allowedOrigins)) {
    return {
      status: 403,
      message: `Forbidden: requests from the web origin ${JSON.stringify(origin)} are refused; only loopback origins${options.allowedOrigins.length ? ` and ${options.allowedOrigins.join(', ')}` : ''} may connect`,
    };
  }
  if (options.token !== undefined) {
    const header = req.headers.authorization;
    const given =
      typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : undefined;
    if (given === undefined || !sameToken(given, options.token)) {
      return {
        status: 401,
        message:
          given === undefined
            ? 'Unauthorized: send the token that "toolshed mcp serve" printed (and wrote to its token file) as the header "Authorization: Bearer <token>"'
            : 'Unauthorized: the bearer token is not the one this server was started with; take it from the token file that "toolshed mcp serve" printed',
        headers: { 'www-authenticate': 'Bearer realm="toolshed"' },
      };
    }
  }
  return undefined;
}

function originAllowed(origin: string, extra: readonly string[]): boolean {
  if (extra.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false; // "null" (a sandboxed frame, a file: page) and anything malformed
  }
}

function sameToken(given: string, expected: string): boolean {
  // Hashes have equal length, so the comparison takes the same time whatever was sent.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
