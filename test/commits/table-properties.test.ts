import t from 'tap';
import { parseJavaInt, propertyAsBoolean, propertyAsInt } from '../../src/commits/table-properties.js';

t.test('ints read as Java Integer.parseInt reads them', async (t) => {
  t.equal(parseJavaInt('42'), 42);
  t.equal(parseJavaInt('+7'), 7);
  t.equal(parseJavaInt('-0012'), -12);
  t.equal(parseJavaInt('2147483648'), undefined);
  t.equal(parseJavaInt('1.0'), undefined);
  t.equal(parseJavaInt(' 1'), undefined);
  t.equal(parseJavaInt(''), undefined);
});

t.test('an int property falls back when absent and is refused when malformed', async (t) => {
  t.equal(propertyAsInt({}, 'k', 5), 5);
  t.equal(propertyAsInt({ k: '9' }, 'k', 5), 9);
  t.throws(() => propertyAsInt({ k: 'nine' }, 'k', 5), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a boolean property is true only for "true", in any case (Boolean.parseBoolean)', async (t) => {
  t.equal(propertyAsBoolean({ k: 'TRUE' }, 'k', false), true);
  t.equal(propertyAsBoolean({ k: 'yes' }, 'k', true), false);
  t.equal(propertyAsBoolean({}, 'k', true), true);
});
