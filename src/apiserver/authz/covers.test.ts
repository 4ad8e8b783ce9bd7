import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compactRules, compactString, covers } from './covers.js';

describe('covers (kube validation.Covers)', () => {
  test('a wider rule covers a narrower one, not the other way round', () => {
    const wide = [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }];
    const narrow = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }];
    assert.deepEqual(covers(wide, narrow), []);
    assert.deepEqual(covers(narrow, wide), [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }]);
  });

  test('*/subresource covers a subresource, and prefix* covers paths', () => {
    assert.deepEqual(covers([{ verbs: ['get'], apiGroups: ['*'], resources: ['*/log'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }]), []);
    assert.deepEqual(covers([{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/logs/a', '/metrics'] }]), [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]);
  });

  test('missing rules are compacted by resource and printed as Go prints them', () => {
    const missing = covers([], [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['secrets'] }]);
    assert.deepEqual(compactRules(missing).map(compactString), ['{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}']);
  });
});
