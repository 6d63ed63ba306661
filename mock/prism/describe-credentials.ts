// What a 401 tells the client to send: the credentials of each security requirement the operation has, and
// that any value passes (the mock checks only that they are there, as Prism does), and how to turn it off.
import type { HttpSecurityScheme } from '@stoplight/types';

/** How the check is turned off, named on every 401 so nobody needs to look it up. */
export const SECURITY_CHECK_OFF =
  'To turn the check off, start the mock with --no-security-check (CLI) or checkSecurity: false (startMock, createApp).';

/**
 * What a 401's violation says: each requirement the operation accepts (schemes of one requirement are sent
 * together), what each scheme reads, and that any value works. The problem's detail adds
 * {@link SECURITY_CHECK_OFF}.
 * @example describeCredentials([[{ key: 'Bearer', type: 'http', scheme: 'bearer' }]])
 * // "Send credentials for one of the contract's security schemes: Bearer (header Authorization: Bearer <any token>).
 * …"
 */
export function describeCredentials(security: readonly (readonly HttpSecurityScheme[])[] | undefined): string {
  const requirements = (security ?? []).filter((requirement) => requirement.length > 0);
  const ways = requirements.map((requirement) =>
    requirement.length === 1
      ? describeScheme(requirement[0]!)
      : `${requirement.map(describeScheme).join(' and ')}, together`,
  );
  const which = ways.length > 0 ? `: ${ways.join('; or ')}` : '';
  return `Send credentials for one of the contract's security schemes${which}. The mock checks only that they are there: any value works.`;
}

/** One scheme: its name in the contract and what it reads, with a value that passes. */
function describeScheme(scheme: HttpSecurityScheme): string {
  return `${scheme.key} (${whatItReads(scheme)})`;
}

function whatItReads(scheme: HttpSecurityScheme): string {
  switch (scheme.type) {
    case 'apiKey':
      if (scheme.in === 'query') return `query parameter ${scheme.name}=<any value>`;
      if (scheme.in === 'cookie') return `cookie ${scheme.name}=<any value>`;
      return `header ${scheme.name}: <any value>`;
    case 'http':
      // Prism's Basic check decodes the token and wants one user:password pair.
      if (scheme.scheme.toLowerCase() === 'basic') {
        return 'header Authorization: Basic <base64 of any user:password>, such as Basic dXNlcjpwYXNz';
      }
      if (scheme.scheme.toLowerCase() === 'digest') {
        return 'header Authorization: Digest username="u", realm="r", nonce="n", uri="u", response="r" (any values)';
      }
      return 'header Authorization: Bearer <any token>';
    case 'oauth2':
    case 'openIdConnect':
      return 'header Authorization: Bearer <any token>';
    default:
      return `a ${(scheme as { type: string }).type} credential`;
  }
}

/**
 * Where the first scheme the operation accepts is read, for the 401's violation: a query parameter, a header,
 * or `Authorization` when the operation names no scheme (Prism refuses a stray Authorization header then).
 */
export function credentialsPlace(security: readonly (readonly HttpSecurityScheme[])[] | undefined): {
  location: 'query' | 'header';
  pointer: string;
} {
  const first = (security ?? []).find((requirement) => requirement.length > 0)?.[0];
  if (first?.type !== 'apiKey') return { location: 'header', pointer: '/authorization' };
  if (first.in === 'query') return { location: 'query', pointer: `/${first.name}` };
  return { location: 'header', pointer: first.in === 'cookie' ? '/cookie' : `/${first.name.toLowerCase()}` };
}
