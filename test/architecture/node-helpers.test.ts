/** node/'s small shared helpers: the words of zod issues, and Content-Type media types. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mediaType } from '../../node/content-type';
import { firstIssue, issueText } from '../../node/zod-issues';

describe('zod issues', () => {
  const schema = z.object({ a: z.object({ b: z.number() }), c: z.string() });
  const error = schema.safeParse({ a: { b: 'x' }, c: 1 }).error!;

  it('lists every issue as path: message', () => {
    expect(issueText(error)).toMatch(/^a\.b: .+; c: .+$/);
  });

  it('names an issue about the whole value with the given root', () => {
    const whole = z.string().safeParse(1).error!;
    expect(issueText(whole, 'body')).toMatch(/^body: /);
    expect(issueText(whole)).toMatch(/^: /);
  });

  it('gives the first issue as field and problem', () => {
    expect(firstIssue(error)).toEqual({ field: 'a.b', problem: error.issues[0].message });
  });
});

describe('mediaType', () => {
  it.each([
    ['application/JSON; charset=utf-8', 'application/json'],
    ['  text/plain ', 'text/plain'],
    [undefined, ''],
    ['multipart/form-data; boundary=x', 'multipart/form-data'],
  ])('%s → %s', (header, want) => expect(mediaType(header)).toBe(want));
});
