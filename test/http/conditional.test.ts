import t from 'tap';
import { ifNoneMatchHits } from '../../src/http/conditional.js';

const etag = '"0123abcd"';

t.test('If-None-Match matches the current tag in any of its accepted forms', async (t) => {
  for (const header of [etag, 'W/"0123abcd"', '"x", "0123abcd"', '"x",W/"0123abcd" , "y"', '*', ' * ', '0123abcd', ['"x"', etag]]) {
    t.ok(ifNoneMatchHits(header, etag), JSON.stringify(header));
  }
});

t.test('If-None-Match without the current tag does not match', async (t) => {
  for (const header of [undefined, '', '"0123abc"', '"0123abcd0"', 'W/"other"', '"a", "b"', '""', '"0123abcd']) {
    t.notOk(ifNoneMatchHits(header, etag), JSON.stringify(header));
  }
});
