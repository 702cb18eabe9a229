/** The console's reading of an audit entry: every field of either side once, the changed ones marked; who acted. */
import { describe, expect, it } from 'vitest';
import { actorText, fieldChanges } from '../../console/src/views/audit-diff.js';

describe('fieldChanges', () => {
  it('lists each field of either side once, in first-seen order, marking the changed ones', () => {
    expect(fieldChanges({ name: 'a', quota: 5, models: ['x'] }, { name: 'a', quota: 7, models: ['x'], apiKeysReplaced: true })).toEqual([
      { field: 'name', before: '"a"', after: '"a"', changed: false },
      { field: 'quota', before: '5', after: '7', changed: true },
      { field: 'models', before: '["x"]', after: '["x"]', changed: false },
      { field: 'apiKeysReplaced', before: undefined, after: 'true', changed: true },
    ]);
  });

  it('shows a creation and a deletion as one side only', () => {
    expect(fieldChanges(null, { name: 'new' })).toEqual([{ field: 'name', before: undefined, after: '"new"', changed: true }]);
    expect(fieldChanges({ name: 'gone' }, null)).toEqual([{ field: 'name', before: '"gone"', after: undefined, changed: true }]);
    expect(fieldChanges(null, null)).toEqual([]);
  });
});

describe('actorText', () => {
  it('names the actor by kind, with its id where it has one', () => {
    expect(actorText({ actorKind: 'cli', actorId: 'alice', actorName: 'alice' })).toBe('cli (alice)');
    expect(actorText({ actorKind: 'admin-key', actorId: null, actorName: 'admin key' })).toBe('admin-key (admin key)');
    expect(actorText({ actorKind: 'config-file', actorId: null, actorName: null })).toBe('config-file');
  });
});
