/**
 * What a bearer key (SVC_API_KEY, --api-key) may contain: visible ASCII (0x21-0x7E) only. The
 * Authorization header carries the key after `Bearer ` up to the end of the line; RFC 6750's
 * token grammar has no space, HTTP stacks trim or fold whitespace, and a header is read as Latin-1,
 * so a key with a space, a control character or a non-ASCII character could never authenticate.
 * Such a key stops start-up instead; the message names the character's position, never the key.
 */

/** Why the key cannot be sent in an Authorization header, or undefined when it can. */
export function apiKeyProblem(key: string): string | undefined {
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code >= 0x21 && code <= 0x7e) continue;
    const what = code === 0x20 ? 'a space' : code === 0x09 ? 'a tab' : code < 0x20 || code === 0x7f ? 'a control character' : 'a non-ASCII character';
    return `contains ${what} at character ${i + 1} of ${key.length}; a bearer key must be visible ASCII without spaces (RFC 6750), or no client can send it`;
  }
  return undefined;
}
