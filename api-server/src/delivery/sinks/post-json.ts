/**
 * One HTTP POST of a JSON body for a sink, classified for the delivery worker: 2xx ok; 408, 425,
 * 429, 5xx, a time-out or a connection error → RetryableDeliveryError; any other status →
 * PermanentDeliveryError. Errors name the sink, never the URL (URLs can carry tokens).
 */
import { PermanentDeliveryError, RetryableDeliveryError } from './sink.js';

const RETRYABLE = new Set([408, 425, 429]);

export async function postJson(sink: string, url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'faultline-api-server', ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const reason = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : `connection failed (${causeCode(error)})`;
    throw new RetryableDeliveryError(`${sink}: ${reason}`);
  }
  // the answer body is not needed: read it so the connection can be reused
  await response.arrayBuffer().catch(() => undefined);
  if (response.ok) return;
  const message = `${sink}: HTTP ${response.status}`;
  if (response.status >= 500 || RETRYABLE.has(response.status)) throw new RetryableDeliveryError(message, response.status);
  throw new PermanentDeliveryError(message, response.status);
}

function causeCode(error: unknown): string {
  const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  if (cause !== null && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.message : 'unknown error';
}
