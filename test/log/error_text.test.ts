// What a failed job or an unexpected error leaves in the log: the database's reason, never the statement's
// parameters (prospects' addresses and reply text).
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { errorText } from '../../lib/log';

describe('errorText', () => {
  it('names the innermost cause with its SQLSTATE and leaves out the failed statement and its parameters', () => {
    const pgError = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const wrapped = new DrizzleQueryError('update leads set email = $1 where id = $2', ['ann@prospect.com', 'x'], pgError);
    expect(wrapped.message).toContain('ann@prospect.com');
    expect(errorText(wrapped)).toBe('40P01 deadlock detected');
  });

  it('keeps a plain error’s message and a non-error’s text', () => {
    expect(errorText(new Error('no handler for job kind "x"'))).toBe('no handler for job kind "x"');
    expect(errorText('boom')).toBe('boom');
    expect(errorText(new Error('outer', { cause: null }))).toBe('outer');
    expect(errorText(new Error('outer', { cause: { detail: 'not an error' } }))).toBe('outer');
  });

  it('never prints a failed statement even when it has no cause', () => {
    expect(errorText(new Error('Failed query: select $1\nparams: secret@prospect.com'))).toBe('query failed');
  });
});
