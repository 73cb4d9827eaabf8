/**
 * Issue 11, item 21: after a sync that ran before the page opened (`--demo` syncs at start), the
 * status bar must not say "Network: not checked yet" — the page asks the engine what it knows.
 */
import { describe, expect, it } from 'vitest';
import { activityReducer, initialActivity } from './activity';
import { linkStatus } from './statusLine';

describe('the link when the page opens', () => {
  it('takes what the engine learned before the page was there', () => {
    const state = activityReducer(initialActivity, { type: 'linkAtLoad', online: true });
    expect(linkStatus(state.link)).not.toEqual(linkStatus(initialActivity.link));
    expect(state.link).toEqual({ online: true });
    expect(linkStatus(initialActivity.link).text).toBe('Network: not checked yet');
  });

  it('stays unknown when nothing was asked yet, and never overrides fresher evidence', () => {
    expect(activityReducer(initialActivity, { type: 'linkAtLoad', online: null }).link).toEqual({
      online: null,
    });
    const offline = activityReducer(initialActivity, {
      type: 'event',
      event: { type: 'connectivity', online: false, message: 'Wi-Fi off' },
    });
    expect(activityReducer(offline, { type: 'linkAtLoad', online: true }).link).toEqual({
      online: false,
      message: 'Wi-Fi off',
    });
  });
});
