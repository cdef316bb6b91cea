import type { IncomingHttpHeaders } from 'node:http';

/** An AWS service's own refusal (its error type and message), as a signed upstream's front end answers it. */
export interface AwsRefusal {
  readonly type: string;
  readonly message: string;
}

/**
 * The error an AWS front end answered, read the ways AWS writes one: the `x-amzn-ErrorType`
 * header (`Type:namespace-uri`), a JSON body's `__type` (`namespace#Type`) and `message` or
 * `Message` (AWS's JSON and REST-JSON protocols), or an XML body's `<Code>` and `<Message>` (S3's
 * REST-XML). Undefined for anything else (an Iceberg ErrorModel included). Only the message's
 * first line is kept, at most 200 characters: AWS follows a signature mismatch with the canonical
 * request it expected, whose signed headers may hold a session token.
 */
export function awsRefusalOf(headers: IncomingHttpHeaders | Readonly<Record<string, string | string[] | undefined>>, body: Buffer | undefined): AwsRefusal | undefined {
  const header = headers['x-amzn-errortype'];
  let type = typeof header === 'string' ? header.split(':')[0]!.trim() : undefined;
  let message: string | undefined;
  const text = body?.toString('utf8') ?? '';
  if (text.trimStart().startsWith('{')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown> | null;
      const named = json?.['__type'];
      if (typeof named === 'string') type ??= named.split('#').pop();
      const said = json?.['message'] ?? json?.['Message'];
      if (typeof said === 'string') message = said;
    } catch {
      // not JSON after all: only the header is read
    }
  } else if (text.trimStart().startsWith('<')) {
    type ??= /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
    message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  }
  if (type === undefined || !/^[\w.-]{1,100}$/.test(type)) return undefined;
  const line = (message ?? '').split('\n')[0]!.trim();
  return { type, message: line.length > 200 ? `${line.slice(0, 200)}…` : line };
}

/** `InvalidSignatureException: The request signature …`, or just the type. */
export function describeAwsRefusal(refusal: AwsRefusal): string {
  return refusal.message === '' ? refusal.type : `${refusal.type}: ${refusal.message}`;
}
